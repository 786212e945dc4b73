// atomic_write.h: lstat/stat to decide, O_CREAT|O_EXCL|O_NOFOLLOW for the temporary file (the
// target's mode kept), fsync, rename.
#include "base/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <filesystem>

namespace ts {

namespace {

std::string errno_text() { return std::strerror(errno); }

}  // namespace

Result<std::string> atomic_write_target(const std::string& path) {
  if (path.empty()) return make_error("no output path given");
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return path;  // a new file
    return make_error(path + ": cannot check the output path (" + errno_text() + ")");
  }
  std::string target = path;
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const std::filesystem::path resolved = std::filesystem::canonical(path, ec);
    if (ec) return make_error(path + ": a symlink whose target cannot be resolved");
    target = resolved.string();
    if (::stat(target.c_str(), &st) != 0) {
      return make_error(path + ": cannot check the output path (" + errno_text() + ")");
    }
  }
  if (!S_ISREG(st.st_mode)) {
    return make_error(path + ": exists and is not a regular file (a device, directory or pipe "
                      "is never replaced)");
  }
  return target;
}

Status write_file_atomically(const std::string& path,
                             const std::function<Status(std::ostream&)>& write) {
  Result<std::string> target = atomic_write_target(path);
  if (!target.ok()) return target.error();
  struct stat old {};
  const bool existed = ::stat(target->c_str(), &old) == 0;
  static std::atomic<unsigned> counter{0};
  const std::string tmp = target.value() + ".tmp-" + std::to_string(::getpid()) + "-" +
                          std::to_string(counter.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(path + ": cannot create a temporary file (" + errno_text() + ")");
  if (existed) (void)::fchmod(fd, old.st_mode & 07777);
  Status st = ok_status();
  bool flushed = false;
  {
    __gnu_cxx::stdio_filebuf<char> buf(fd, std::ios::out | std::ios::binary);
    std::ostream os(&buf);
    st = write(os);
    os.flush();
    flushed = static_cast<bool>(os) && ::fsync(fd) == 0;
  }  // the filebuf closes fd
  if (!st.ok() || !flushed) {
    ::unlink(tmp.c_str());
    return make_error(path + ": " +
                      (st.ok() ? std::string("write failed (disk full?)") : st.error().message));
  }
  if (::rename(tmp.c_str(), target->c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    return make_error(path + ": cannot replace the file (" + why + ")");
  }
  return ok_status();
}

}  // namespace ts
