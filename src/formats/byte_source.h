// Bounded reading of a model file: a ByteSource (a file on disk or bytes in memory) and a Cursor
// that reads little-endian values from it, refusing any read past the end with a one-line error
// that names the file, the field and the offset. Loaders check sizes against remaining() before
// they allocate. Does not interpret any format.
#pragma once
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"

namespace ts {

static_assert(std::endian::native == std::endian::little, "model files are little-endian");

// Copies share one open file (cheap to copy); reads from several threads at once are not safe.
class ByteSource {
 public:
  static Result<ByteSource> open_file(const std::string& path);
  // `name` is used in error messages ("<memory>" if empty).
  static ByteSource from_memory(std::vector<uint8_t> bytes, std::string name = "");

  const std::string& name() const { return name_; }
  uint64_t size() const { return size_; }
  // Copies bytes [offset, offset + n) into dst; an error if that range is not inside the source.
  Status read_at(uint64_t offset, void* dst, size_t n, const char* what) const;

 private:
  struct File;
  std::string name_;
  uint64_t size_ = 0;
  std::shared_ptr<File> file_;                       // set for files
  std::shared_ptr<const std::vector<uint8_t>> mem_;  // set for memory
};

// Sequential reads with a small read-ahead buffer (metadata is many tiny values).
class Cursor {
 public:
  explicit Cursor(const ByteSource& src, uint64_t pos = 0) : src_(&src), pos_(pos) {}

  uint64_t pos() const { return pos_; }
  uint64_t remaining() const { return pos_ < src_->size() ? src_->size() - pos_ : 0; }
  const ByteSource& source() const { return *src_; }

  Status read(void* dst, size_t n, const char* what);
  Status skip(uint64_t n, const char* what);
  template <class T>
  Result<T> get(const char* what) {
    T v{};
    TS_TRY(read(&v, sizeof(T), what));
    return v;
  }
  // An error naming the file and the current offset: "<file>: <msg> (at offset N)".
  Error fail(const std::string& msg) const;

 private:
  const ByteSource* src_;
  uint64_t pos_;
  std::vector<uint8_t> buf_;  // (buf_len_) bytes of the source starting at buf_start_
  uint64_t buf_start_ = 0;
  size_t buf_len_ = 0;
};

}  // namespace ts
