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
#include <filesystem>
#include <streambuf>
#include <vector>

namespace ts {

namespace {

std::string errno_text() { return std::strerror(errno); }

// An output stream buffer over a file descriptor (any C++ standard library): 64 KiB buffered,
// seekable, write(2) on overflow and sync, retried after short writes and EINTR; closes the
// descriptor.
class FdOutBuf : public std::streambuf {
 public:
  explicit FdOutBuf(int fd) : fd_(fd), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  ~FdOutBuf() override {
    sync();
    ::close(fd_);
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return flush_buffer() ? 0 : -1; }
  // tellp/seekp (writers that patch a header after the body): flush, then move the descriptor.
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    if (!flush_buffer()) return pos_type(off_type(-1));
    const int whence = dir == std::ios_base::beg ? SEEK_SET
                       : dir == std::ios_base::cur ? SEEK_CUR
                                                   : SEEK_END;
    const off_t r = ::lseek(fd_, static_cast<off_t>(off), whence);
    return r < 0 ? pos_type(off_type(-1)) : pos_type(static_cast<off_type>(r));
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }

 private:
  bool flush_buffer() {
    const char* p = pbase();
    size_t left = static_cast<size_t>(pptr() - pbase());
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
      left -= static_cast<size_t>(n);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return true;
  }
  int fd_;
  std::vector<char> buf_;
};

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
    FdOutBuf buf(fd);
    std::ostream os(&buf);
    st = write(os);
    os.flush();
    flushed = static_cast<bool>(os) && ::fsync(fd) == 0;
  }  // the buffer closes fd
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
