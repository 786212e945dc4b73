// GGUF v3 writer: header, metadata in insertion order (general.alignment first when it is not
// the default 32), tensor infos, zero padding to the alignment, then each tensor's data padded
// to the alignment. Values are checked (range of each integer type, array item kinds) before a
// byte is written.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_write.h"
#include "formats/gguf.h"

namespace ts {

namespace {

struct Out {
  std::ostream& os;
  void bytes(const void* p, size_t n) {
    os.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
  }
  template <class T>
  void pod(T v) {
    bytes(&v, sizeof v);
  }
  void string(const std::string& s) {
    pod<uint64_t>(s.size());
    bytes(s.data(), s.size());
  }
  void pad_to(uint64_t pos, uint32_t alignment) {
    static const char zeros[256] = {};
    uint64_t n = (alignment - pos % alignment) % alignment;
    while (n > 0) {
      const uint64_t k = std::min<uint64_t>(n, sizeof zeros);
      bytes(zeros, k);
      n -= k;
    }
  }
};

// Range of each integer type; false when v does not fit.
bool fits_unsigned(GgufValueType t, uint64_t v) {
  switch (t) {
    case GgufValueType::UInt8:
      return v <= UINT8_MAX;
    case GgufValueType::UInt16:
      return v <= UINT16_MAX;
    case GgufValueType::UInt32:
      return v <= UINT32_MAX;
    case GgufValueType::Bool:
      return v <= 1;
    default:
      return true;
  }
}

bool fits_signed(GgufValueType t, int64_t v) {
  switch (t) {
    case GgufValueType::Int8:
      return v >= INT8_MIN && v <= INT8_MAX;
    case GgufValueType::Int16:
      return v >= INT16_MIN && v <= INT16_MAX;
    case GgufValueType::Int32:
      return v >= INT32_MIN && v <= INT32_MAX;
    default:
      return true;
  }
}

void put_unsigned(Out& o, GgufValueType t, uint64_t v) {
  switch (gguf_scalar_size(t)) {
    case 1:
      o.pod(static_cast<uint8_t>(v));
      break;
    case 2:
      o.pod(static_cast<uint16_t>(v));
      break;
    case 4:
      o.pod(static_cast<uint32_t>(v));
      break;
    default:
      o.pod(v);
  }
}

void put_signed(Out& o, GgufValueType t, int64_t v) {
  switch (gguf_scalar_size(t)) {
    case 1:
      o.pod(static_cast<int8_t>(v));
      break;
    case 2:
      o.pod(static_cast<int16_t>(v));
      break;
    case 4:
      o.pod(static_cast<int32_t>(v));
      break;
    default:
      o.pod(v);
  }
}

void put_float(Out& o, GgufValueType t, double v) {
  if (t == GgufValueType::Float32)
    o.pod(static_cast<float>(v));
  else
    o.pod(v);
}

Status check_value(const std::string& key, const GgufValue& v, int depth) {
  auto bad = [&](const std::string& why) {
    return make_error("GGUF metadata " + gguf_printable(key) + ": " + why);
  };
  if (depth > 4) return bad("arrays nested too deeply");
  const GgufValueType t = v.type;
  if (!gguf_value_type_valid(static_cast<uint32_t>(t))) return bad("invalid value type");
  if (gguf_value_kind(t) == 'u' && !fits_unsigned(t, v.u)) {
    return bad(std::to_string(v.u) + " does not fit " + gguf_value_type_name(t));
  }
  if (gguf_value_kind(t) == 'i' && !fits_signed(t, v.i)) {
    return bad(std::to_string(v.i) + " does not fit " + gguf_value_type_name(t));
  }
  if (t != GgufValueType::Array) return ok_status();
  const char k = gguf_value_kind(v.elem);
  if (!gguf_value_type_valid(static_cast<uint32_t>(v.elem))) return bad("invalid item type");
  const size_t filled = (v.arr_u.empty() ? 0 : 1) + (v.arr_i.empty() ? 0 : 1) +
                        (v.arr_f.empty() ? 0 : 1) + (v.arr_s.empty() ? 0 : 1) +
                        (v.arr_a.empty() ? 0 : 1);
  if (filled > 1 || (filled == 1 && v.array_size() == 0)) {
    return bad(std::string("items stored in the wrong field for ") + gguf_value_type_name(v.elem) +
               " items");
  }
  for (uint64_t x : v.arr_u) {
    if (!fits_unsigned(v.elem, x)) return bad(std::to_string(x) + " does not fit its item type");
  }
  for (int64_t x : v.arr_i) {
    if (!fits_signed(v.elem, x)) return bad(std::to_string(x) + " does not fit its item type");
  }
  if (k == 'a') {
    for (const GgufValue& inner : v.arr_a) {
      if (!inner.is_array()) return bad("an array of arrays holds a non-array");
      TS_TRY(check_value(key, inner, depth + 1));
    }
  }
  return ok_status();
}

void put_array_body(Out& o, const GgufValue& v) {
  o.pod(static_cast<uint32_t>(v.elem));
  o.pod<uint64_t>(v.array_size());
  switch (gguf_value_kind(v.elem)) {
    case 'u':
      for (uint64_t x : v.arr_u) put_unsigned(o, v.elem, x);
      break;
    case 'i':
      for (int64_t x : v.arr_i) put_signed(o, v.elem, x);
      break;
    case 'f':
      for (double x : v.arr_f) put_float(o, v.elem, x);
      break;
    case 's':
      for (const std::string& s : v.arr_s) o.string(s);
      break;
    default:
      for (const GgufValue& a : v.arr_a) put_array_body(o, a);
  }
}

void put_value(Out& o, const GgufValue& v) {
  o.pod(static_cast<uint32_t>(v.type));
  switch (gguf_value_kind(v.type)) {
    case 'u':
      put_unsigned(o, v.type, v.u);
      break;
    case 'i':
      put_signed(o, v.type, v.i);
      break;
    case 'f':
      put_float(o, v.type, v.f);
      break;
    case 's':
      o.string(v.s);
      break;
    default:
      put_array_body(o, v);
  }
}

}  // namespace

void GgufWriter::set(const std::string& key, GgufValue value) {
  for (GgufKv& kv : kv_) {
    if (kv.first == key) {
      kv.second = std::move(value);
      return;
    }
  }
  kv_.emplace_back(key, std::move(value));
}

Status GgufWriter::set_alignment(uint32_t alignment) {
  if (alignment < 8 || (alignment & (alignment - 1)) != 0) {
    return make_error("GGUF alignment must be a power of two >= 8, got " +
                      std::to_string(alignment));
  }
  alignment_ = alignment;
  return ok_status();
}

Status GgufWriter::add_raw_tensor(const std::string& name, std::vector<uint64_t> ne, GgmlType type,
                                  std::vector<uint8_t> bytes) {
  auto bad = [&](const std::string& why) {
    return make_error("GGUF tensor " + gguf_printable(name) + ": " + why);
  };
  if (name.empty() || name.size() > kGgufMaxTensorName) return bad("name must be 1..64 bytes");
  if (!gguf_name_ok(name)) return bad("name is not printable UTF-8");
  for (const Tensor& t : tensors_) {
    if (t.name == name) return bad("added twice");
  }
  if (ne.empty() || ne.size() > kGgufMaxDims) return bad("needs 1..4 dimensions");
  const GgmlTypeInfo* info = ggml_type_info(static_cast<uint32_t>(type));
  if (!info) return bad("unknown tensor type");
  uint64_t n = 1;
  for (uint64_t d : ne) {
    if (d == 0 || __builtin_mul_overflow(n, d, &n)) return bad("invalid shape");
  }
  if (ne[0] % info->block_len != 0) {
    return bad("row length " + std::to_string(ne[0]) + " is not a multiple of the " + info->name +
               " block size " + std::to_string(info->block_len));
  }
  if (n / info->block_len * info->block_bytes != bytes.size()) {
    return bad("has " + std::to_string(bytes.size()) + " bytes, its shape needs " +
               std::to_string(n / info->block_len * info->block_bytes));
  }
  tensors_.push_back(Tensor{name, std::move(ne), type, std::move(bytes)});
  return ok_status();
}

Status GgufWriter::add_tensor(const std::string& name, std::vector<uint64_t> ne, GgmlType type,
                              std::span<const float> data) {
  uint64_t n = 1;
  for (uint64_t d : ne) {
    if (__builtin_mul_overflow(n, d, &n)) n = 0;
  }
  if (n != data.size()) {
    return make_error("GGUF tensor " + gguf_printable(name) + ": shape holds " + std::to_string(n) +
                      " values, data has " + std::to_string(data.size()));
  }
  if (const size_t block = ggml_block_len(type); !ne.empty() && ne[0] % block != 0) {
    return make_error("GGUF tensor " + gguf_printable(name) + ": " +
                      ggml_type_name(static_cast<uint32_t>(type)) +
                      " needs a row length that is a multiple of " + std::to_string(block) +
                      ", got " + std::to_string(ne[0]));
  }
  Result<std::vector<uint8_t>> bytes = ggml_from_f32(type, data);
  if (!bytes)
    return make_error("GGUF tensor " + gguf_printable(name) + ": " + bytes.error().message);
  return add_raw_tensor(name, std::move(ne), type, std::move(bytes.value()));
}

namespace {

Status write_all(std::ostream& os, uint32_t alignment, const std::vector<GgufKv>& kv,
                 const auto& tensors) {
  for (const GgufKv& e : kv) {
    if (e.first.empty()) return make_error("GGUF metadata: empty key");
    if (!gguf_name_ok(e.first)) {
      return make_error("GGUF metadata key \"" + gguf_printable(e.first) +
                        "\" is not printable UTF-8");
    }
    if (e.first == "general.alignment") {
      return make_error("GGUF metadata general.alignment: use set_alignment");
    }
    TS_TRY(check_value(e.first, e.second, 1));
  }
  Out o{os};
  o.bytes("GGUF", 4);
  o.pod<uint32_t>(kGgufVersion);
  o.pod<uint64_t>(tensors.size());
  const bool write_alignment = alignment != kGgufDefaultAlignment;
  o.pod<uint64_t>(kv.size() + (write_alignment ? 1 : 0));
  if (write_alignment) {
    o.string("general.alignment");
    put_value(o, GgufValue::u32(alignment));
  }
  for (const GgufKv& e : kv) {
    o.string(e.first);
    put_value(o, e.second);
  }
  uint64_t offset = 0;
  for (const auto& t : tensors) {
    o.string(t.name);
    o.pod<uint32_t>(static_cast<uint32_t>(t.ne.size()));
    for (uint64_t d : t.ne) o.pod(d);
    o.pod(static_cast<uint32_t>(t.type));
    o.pod(offset);
    offset += (t.bytes.size() + alignment - 1) / alignment * alignment;
  }
  o.pad_to(static_cast<uint64_t>(os.tellp()), alignment);
  for (const auto& t : tensors) {
    o.bytes(t.bytes.data(), t.bytes.size());
    o.pad_to(t.bytes.size(), alignment);
  }
  if (!os) return make_error("GGUF: write failed");
  return ok_status();
}

}  // namespace

Result<std::vector<uint8_t>> GgufWriter::to_bytes() const {
  std::ostringstream os(std::ios::binary);
  TS_TRY(write_all(os, alignment_, kv_, tensors_));
  const std::string s = os.str();
  return std::vector<uint8_t>(s.begin(), s.end());
}

Status GgufWriter::write_file(const std::string& path) const {
  // A temporary file renamed over the target, which must be a regular file or new (a device such
  // as /dev/full or a directory is refused, never replaced).
  return write_file_atomically(
      path, [&](std::ostream& os) { return write_all(os, alignment_, kv_, tensors_); });
}

}  // namespace ts
