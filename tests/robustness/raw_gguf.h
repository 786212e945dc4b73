// Byte-level GGUF building for the hostile-file tables: the writer refuses to write nonsense, so
// these helpers write any header, count, string length, tensor info and offset by hand, plus a
// scratch folder and the check every refusal must pass (one line naming the file).
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "base/utf8.h"

namespace ts::test {

struct RawGguf {
  std::vector<uint8_t> b;
  RawGguf& raw(const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    b.insert(b.end(), c, c + n);
    return *this;
  }
  RawGguf& u32(uint32_t v) { return raw(&v, 4); }
  RawGguf& u64(uint64_t v) { return raw(&v, 8); }
  RawGguf& f32(float v) { return raw(&v, 4); }
  RawGguf& str(std::string_view s) { return u64(s.size()).raw(s.data(), s.size()); }
  RawGguf& header(uint64_t n_tensors, uint64_t n_kv, uint32_t version = 3) {
    return raw("GGUF", 4).u32(version).u64(n_tensors).u64(n_kv);
  }
  RawGguf& kv_u32(std::string_view key, uint32_t v) { return str(key).u32(4).u32(v); }
  RawGguf& kv_str(std::string_view key, std::string_view v) { return str(key).u32(8).str(v); }
  // A tensor info: name, dims (fastest first), ggml type (0 = F32), data offset.
  RawGguf& tensor(std::string_view name, const std::vector<uint64_t>& ne, uint32_t type,
                  uint64_t offset) {
    str(name).u32(static_cast<uint32_t>(ne.size()));
    for (uint64_t d : ne) u64(d);
    return u32(type).u64(offset);
  }
  RawGguf& pad(size_t alignment = 32) {
    while (b.size() % alignment) b.push_back(0);
    return *this;
  }
  RawGguf& zeros(size_t n) {
    b.insert(b.end(), n, 0);
    return *this;
  }
};

inline std::filesystem::path scratch_dir() {
  const auto d = std::filesystem::temp_directory_path() / "tokenscope-robustness";
  std::filesystem::create_directories(d);
  return d;
}

inline std::string write_scratch(const std::string& name, const std::vector<uint8_t>& bytes) {
  const auto p = scratch_dir() / name;
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return p.string();
}

inline std::string write_scratch_text(const std::string& name, const std::string& text) {
  return write_scratch(name, std::vector<uint8_t>(text.begin(), text.end()));
}

// A refusal as the user sees it: one line of valid UTF-8 that names `file` and says `what`.
inline void check_refusal(const Error& e, const std::string& file, const std::string& what) {
  INFO("message: " << utf8_sanitize(e.message));
  CHECK(e.message.find('\n') == std::string::npos);
  CHECK(utf8_valid(e.message));
  CHECK(e.message.find(file) != std::string::npos);
  CHECK(e.message.find(what) != std::string::npos);
}

}  // namespace ts::test
