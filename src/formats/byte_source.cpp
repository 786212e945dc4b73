// ByteSource and Cursor: every byte a loader reads goes through read_at, which checks the range
// against the source size first, so a truncated file is an error and never an over-read.
#include "formats/byte_source.h"

#include "base/read_file.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace ts {

struct ByteSource::File {
  std::ifstream in;
};

Result<ByteSource> ByteSource::open_file(const std::string& path) {
  // A device (/dev/zero), pipe or directory is refused: its size is not the data it yields.
  TS_TRY(check_regular_file(path));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return make_error(path + ": cannot open (" + ec.message() + ")");
  auto file = std::make_shared<File>();
  file->in.open(path, std::ios::binary);
  if (!file->in) return make_error(path + ": cannot open for reading");
  ByteSource s;
  s.name_ = path;
  s.size_ = static_cast<uint64_t>(size);
  s.file_ = std::move(file);
  return s;
}

ByteSource ByteSource::from_memory(std::vector<uint8_t> bytes, std::string name) {
  ByteSource s;
  s.name_ = name.empty() ? "<memory>" : std::move(name);
  s.size_ = bytes.size();
  s.mem_ = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  return s;
}

Status ByteSource::read_at(uint64_t offset, void* dst, size_t n, const char* what) const {
  if (offset > size_ || n > size_ - offset) {
    return make_error(name_ + ": truncated: " + what + " needs " + std::to_string(n) +
                      " bytes at offset " + std::to_string(offset) + ", file has " +
                      std::to_string(size_));
  }
  if (n == 0) return ok_status();
  if (mem_) {
    std::memcpy(dst, mem_->data() + offset, n);
    return ok_status();
  }
  std::ifstream& in = file_->in;
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
  if (!in || static_cast<size_t>(in.gcount()) != n) {
    return make_error(name_ + ": read error in " + what + " at offset " + std::to_string(offset));
  }
  return ok_status();
}

Status Cursor::read(void* dst, size_t n, const char* what) {
  constexpr size_t kBuf = 64 * 1024;
  if (n == 0) return ok_status();
  if (pos_ >= buf_start_ && pos_ + n <= buf_start_ + buf_len_) {
    std::memcpy(dst, buf_.data() + (pos_ - buf_start_), n);
  } else if (n >= kBuf) {
    TS_TRY(src_->read_at(pos_, dst, n, what));
  } else {
    // Refill: as much as is left, up to the buffer size; a short file is caught by the check.
    if (remaining() < n) return src_->read_at(pos_, dst, n, what);  // the truncation error
    const size_t len = static_cast<size_t>(std::min<uint64_t>(kBuf, remaining()));
    buf_.resize(kBuf);
    TS_TRY(src_->read_at(pos_, buf_.data(), len, what));
    buf_start_ = pos_;
    buf_len_ = len;
    std::memcpy(dst, buf_.data(), n);
  }
  pos_ += n;
  return ok_status();
}

Status Cursor::skip(uint64_t n, const char* what) {
  if (n > remaining()) {
    return make_error(src_->name() + ": truncated: " + what + " needs " + std::to_string(n) +
                      " bytes at offset " + std::to_string(pos_) + ", file has " +
                      std::to_string(src_->size()));
  }
  pos_ += n;
  return ok_status();
}

Error Cursor::fail(const std::string& msg) const {
  return make_error(src_->name() + ": " + msg + " (at offset " + std::to_string(pos_) + ")");
}

}  // namespace ts
