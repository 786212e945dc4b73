// read_file.h: stat() first (type and size), then one bounded read of a regular file.
#include "base/read_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace ts {

namespace {

std::string kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISFIFO(m)) return "a pipe";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

std::string size_text(uint64_t b) {
  if (b >= (uint64_t{1} << 20)) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}

}  // namespace

Status check_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return make_error(path + ": cannot open (" + std::strerror(errno) + ")");
  }
  if (!S_ISREG(st.st_mode)) {
    return make_error(path + ": is " + kind_of(st.st_mode) +
                      ", not a regular file (only regular files are read)");
  }
  return ok_status();
}

Result<std::string> read_regular_file(const std::string& path, uint64_t max_bytes,
                                      const std::string& what) {
  TS_TRY(check_regular_file(path));
  std::ifstream f(path, std::ios::binary);
  if (!f) return make_error(path + ": cannot open for reading");
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  if (size < 0) return make_error(path + ": cannot read");
  if (static_cast<uint64_t>(size) > max_bytes) {
    return make_error(path + ": " + size_text(static_cast<uint64_t>(size)) + " is more than the " +
                      size_text(max_bytes) + " a " + what + " may hold");
  }
  f.seekg(0, std::ios::beg);
  std::string text(static_cast<size_t>(size), '\0');
  f.read(text.data(), size);
  // A file that changed size while it was read is taken as far as it was read.
  text.resize(static_cast<size_t>(f.gcount()));
  if (f.bad()) return make_error(path + ": read error");
  return text;
}

}  // namespace ts
