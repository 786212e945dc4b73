// GGUF reader. Every count read from the file is checked against the bytes that remain before
// anything is reserved (an item takes at least its minimum encoded size), strings against the
// remaining bytes, tensor shapes against overflow and the data section, offsets against the
// alignment and each other. The tensor data is read on request, not at open.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <type_traits>

#include "formats/gguf.h"
#include "formats/memory_budget.h"

namespace ts {

namespace {

constexpr int kMaxArrayDepth = 4;
constexpr uint64_t kMaxKeyLen = 65535;

struct Parser {
  Cursor cur;
  uint64_t budget = kGgufMaxMetadataBytes;  // memory the decoded metadata may still take

  // Charges `bytes` of decoded metadata before they are allocated.
  Status charge(uint64_t bytes, const std::string& what) {
    if (bytes <= budget) {
      budget -= bytes;
      return ok_status();
    }
    return cur.fail(what + " would take " + format_bytes(bytes) +
                    " of memory, more than the metadata may use (" + format_bytes(budget) +
                    " left)");
  }

  Result<std::string> string(const char* what) {
    Result<uint64_t> len = cur.get<uint64_t>(what);
    if (!len) return len.error();
    if (len.value() > cur.remaining()) {
      return cur.fail(std::string(what) + " length " + std::to_string(len.value()) +
                      " runs past the end of the file");
    }
    TS_TRY(charge(len.value() + sizeof(std::string), what));
    std::string s(static_cast<size_t>(len.value()), '\0');
    TS_TRY(cur.read(s.data(), s.size(), what));
    return s;
  }

  template <class T>
  Status scalars_into(std::vector<T>& out, GgufValueType t, uint64_t n, const char* what) {
    out.reserve(static_cast<size_t>(n));
    for (uint64_t k = 0; k < n; ++k) {
      Result<GgufValue> v = scalar(t, what);
      if (!v) return v.error();
      if constexpr (std::is_same_v<T, uint64_t>) out.push_back(v->u);
      if constexpr (std::is_same_v<T, int64_t>) out.push_back(v->i);
      if constexpr (std::is_same_v<T, double>) out.push_back(v->f);
    }
    return ok_status();
  }

  Result<GgufValue> scalar(GgufValueType t, const char* what) {
    uint8_t b[8] = {};
    const size_t n = gguf_scalar_size(t);
    TS_TRY(cur.read(b, n, what));
    auto load = [&](auto v) {
      std::memcpy(&v, b, sizeof v);
      return v;
    };
    switch (t) {
      case GgufValueType::UInt8:
        return GgufValue::u8(load(uint8_t{}));
      case GgufValueType::Int8:
        return GgufValue::i8(load(int8_t{}));
      case GgufValueType::UInt16:
        return GgufValue::u16(load(uint16_t{}));
      case GgufValueType::Int16:
        return GgufValue::i16(load(int16_t{}));
      case GgufValueType::UInt32:
        return GgufValue::u32(load(uint32_t{}));
      case GgufValueType::Int32:
        return GgufValue::i32(load(int32_t{}));
      case GgufValueType::Float32:
        return GgufValue::f32(load(float{}));
      case GgufValueType::UInt64:
        return GgufValue::u64(load(uint64_t{}));
      case GgufValueType::Int64:
        return GgufValue::i64(load(int64_t{}));
      case GgufValueType::Float64:
        return GgufValue::f64(load(double{}));
      case GgufValueType::Bool:
        if (b[0] > 1) return cur.fail(std::string(what) + ": bool value " + std::to_string(b[0]));
        return GgufValue::boolean(b[0] != 0);
      default:
        return cur.fail(std::string(what) + ": not a scalar type");
    }
  }

  Result<GgufValueType> value_type(const char* what) {
    Result<uint32_t> t = cur.get<uint32_t>(what);
    if (!t) return t.error();
    if (!gguf_value_type_valid(t.value())) {
      return cur.fail(std::string(what) + ": unknown value type " + std::to_string(t.value()));
    }
    return static_cast<GgufValueType>(t.value());
  }

  // An array body: item type, count, items. `depth` guards nesting.
  Result<GgufValue> array(const std::string& key, int depth) {
    if (depth > kMaxArrayDepth) return cur.fail(key + ": arrays nested too deeply");
    Result<GgufValueType> et = value_type(key.c_str());
    if (!et) return et.error();
    Result<uint64_t> n = cur.get<uint64_t>(key.c_str());
    if (!n) return n.error();
    const GgufValueType elem = et.value();
    // Smallest encoding of one item: a scalar's size, 8 for a string, 12 for an array header.
    const uint64_t min_item = elem == GgufValueType::String  ? 8
                              : elem == GgufValueType::Array ? 12
                                                             : gguf_scalar_size(elem);
    if (n.value() > cur.remaining() / min_item) {
      return cur.fail(key + ": array of " + std::to_string(n.value()) + " " +
                      gguf_value_type_name(elem) + " items cannot fit in the " +
                      std::to_string(cur.remaining()) + " bytes that remain");
    }
    if (n.value() > kGgufMaxArrayItems) {
      return cur.fail(key + ": array of " + std::to_string(n.value()) + " items (at most " +
                      std::to_string(kGgufMaxArrayItems) + " are read)");
    }
    const uint64_t item_bytes = elem == GgufValueType::String  ? sizeof(std::string)
                                : elem == GgufValueType::Array ? sizeof(GgufValue)
                                                               : sizeof(uint64_t);
    TS_TRY(charge(n.value() * item_bytes, key));
    GgufValue v;
    v.type = GgufValueType::Array;
    v.elem = elem;
    const uint64_t count = n.value();
    switch (gguf_value_kind(elem)) {
      case 'u':
        TS_TRY(scalars_into(v.arr_u, elem, count, key.c_str()));
        break;
      case 'i':
        TS_TRY(scalars_into(v.arr_i, elem, count, key.c_str()));
        break;
      case 'f':
        TS_TRY(scalars_into(v.arr_f, elem, count, key.c_str()));
        break;
      case 's':
        v.arr_s.reserve(static_cast<size_t>(count));
        for (uint64_t k = 0; k < count; ++k) {
          Result<std::string> s = string(key.c_str());
          if (!s) return s.error();
          v.arr_s.push_back(std::move(s.value()));
        }
        break;
      default:
        v.arr_a.reserve(static_cast<size_t>(count));
        for (uint64_t k = 0; k < count; ++k) {
          Result<GgufValue> inner = array(key, depth + 1);
          if (!inner) return inner.error();
          v.arr_a.push_back(std::move(inner.value()));
        }
    }
    return v;
  }

  Result<GgufValue> value(const std::string& key) {
    Result<GgufValueType> t = value_type(key.c_str());
    if (!t) return t.error();
    if (t.value() == GgufValueType::Array) return array(key, 1);
    if (t.value() == GgufValueType::String) {
      Result<std::string> s = string(key.c_str());
      if (!s) return s.error();
      return GgufValue::str(std::move(s.value()));
    }
    return scalar(t.value(), key.c_str());
  }

  Result<GgufTensorInfo> tensor_info(uint64_t index) {
    const std::string what = "tensor info " + std::to_string(index);
    GgufTensorInfo t;
    Result<std::string> name = string(what.c_str());
    if (!name) return name.error();
    t.name = std::move(name.value());
    if (t.name.empty() || t.name.size() > kGgufMaxTensorName) {
      return cur.fail(what + ": tensor name must be 1.." + std::to_string(kGgufMaxTensorName) +
                      " bytes, got " + std::to_string(t.name.size()));
    }
    if (!gguf_name_ok(t.name)) return cur.fail(what + ": tensor name is not printable UTF-8");
    Result<uint32_t> n_dims = cur.get<uint32_t>(what.c_str());
    if (!n_dims) return n_dims.error();
    if (n_dims.value() < 1 || n_dims.value() > kGgufMaxDims) {
      return cur.fail("tensor " + t.name + " has " + std::to_string(n_dims.value()) +
                      " dimensions (1.." + std::to_string(kGgufMaxDims) + " allowed)");
    }
    t.ne.resize(n_dims.value());
    t.n_elements = 1;
    for (uint64_t& d : t.ne) {
      Result<uint64_t> v = cur.get<uint64_t>(what.c_str());
      if (!v) return v.error();
      d = v.value();
      if (d == 0 || d > (uint64_t{1} << 62) ||
          __builtin_mul_overflow(t.n_elements, d, &t.n_elements) ||
          t.n_elements > (uint64_t{1} << 62)) {
        return cur.fail("tensor " + t.name + " has an impossible shape (dimension " +
                        std::to_string(d) + ")");
      }
    }
    Result<uint32_t> type = cur.get<uint32_t>(what.c_str());
    if (!type) return type.error();
    t.type = type.value();
    const GgmlTypeInfo* info = ggml_type_info(t.type);
    if (!info) {
      return cur.fail("tensor " + t.name + " has unknown type " + std::to_string(t.type));
    }
    if (t.ne[0] % info->block_len != 0) {
      return cur.fail("tensor " + t.name + ": row length " + std::to_string(t.ne[0]) +
                      " is not a multiple of the " + info->name + " block size " +
                      std::to_string(info->block_len));
    }
    if (__builtin_mul_overflow(t.n_elements / info->block_len, info->block_bytes, &t.n_bytes)) {
      return cur.fail("tensor " + t.name + " is impossibly large");
    }
    Result<uint64_t> offset = cur.get<uint64_t>(what.c_str());
    if (!offset) return offset.error();
    t.offset = offset.value();
    return t;
  }
};

Status check_layout(const GgufFile& f, std::vector<GgufTensorInfo> tensors) {
  const uint64_t data_size = f.file_size() > f.data_offset() ? f.file_size() - f.data_offset() : 0;
  for (const GgufTensorInfo& t : tensors) {
    if (t.offset % f.alignment() != 0) {
      return make_error(f.name() + ": tensor " + t.name + " offset " + std::to_string(t.offset) +
                        " is not a multiple of the alignment " + std::to_string(f.alignment()));
    }
    if (t.offset > data_size || t.n_bytes > data_size - t.offset) {
      return make_error(f.name() + ": tensor " + t.name + " (" + std::to_string(t.n_bytes) +
                        " bytes at data offset " + std::to_string(t.offset) +
                        ") runs past the end of the file (truncated?)");
    }
  }
  std::sort(tensors.begin(), tensors.end(),
            [](const GgufTensorInfo& a, const GgufTensorInfo& b) { return a.offset < b.offset; });
  for (size_t k = 1; k < tensors.size(); ++k) {
    const GgufTensorInfo& a = tensors[k - 1];
    if (a.offset + a.n_bytes > tensors[k].offset) {
      return make_error(f.name() + ": tensors " + a.name + " and " + tensors[k].name +
                        " overlap in the data section");
    }
  }
  return ok_status();
}

}  // namespace

std::string GgufTensorInfo::shape_string() const {
  std::string s = "[";
  for (size_t k = 0; k < ne.size(); ++k) s += (k ? ", " : "") + std::to_string(ne[k]);
  return s + "]";
}

Result<GgufFile> GgufFile::open(const std::string& path) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  return read(std::move(src.value()));
}

Result<GgufFile> GgufFile::read(ByteSource src) {
  GgufFile f;
  f.src_ = std::move(src);
  Parser p{Cursor(f.src_)};
  const std::string& name = f.src_.name();
  char magic[4];
  TS_TRY(p.cur.read(magic, 4, "GGUF magic"));
  if (std::memcmp(magic, "GGUF", 4) != 0) return make_error(name + ": not a GGUF file (bad magic)");
  Result<uint32_t> version = p.cur.get<uint32_t>("GGUF version");
  if (!version) return version.error();
  f.version_ = version.value();
  if (f.version_ != kGgufVersion) {
    const bool swapped = f.version_ == __builtin_bswap32(kGgufVersion);
    return make_error(name + ": GGUF version " + std::to_string(f.version_) +
                      (swapped ? " (a big-endian file)" : "") + " is not supported (only 3)");
  }
  Result<uint64_t> n_tensors = p.cur.get<uint64_t>("tensor count");
  if (!n_tensors) return n_tensors.error();
  Result<uint64_t> n_kv = p.cur.get<uint64_t>("metadata count");
  if (!n_kv) return n_kv.error();
  // Minimum encodings: a key/value pair 8+1+4+1 bytes, a tensor info 8+1+4+8+4+8 bytes.
  if (n_kv.value() > p.cur.remaining() / 14) {
    return p.cur.fail("metadata count " + std::to_string(n_kv.value()) + " cannot fit in the file");
  }
  if (n_tensors.value() > p.cur.remaining() / 33) {
    return p.cur.fail("tensor count " + std::to_string(n_tensors.value()) +
                      " cannot fit in the file");
  }
  if (n_kv.value() > kGgufMaxKeys || n_tensors.value() > kGgufMaxTensors) {
    return p.cur.fail("metadata count " + std::to_string(n_kv.value()) + " or tensor count " +
                      std::to_string(n_tensors.value()) + " is beyond what any model holds");
  }
  // Never below 64 MiB: a small header is read even when little is free (out of memory is
  // still caught where the command or load started).
  if (std::optional<uint64_t> avail = available_memory_bytes()) {
    p.budget = std::min(p.budget, std::max(*avail, uint64_t{64} << 20));
  }
  TS_TRY(p.charge(n_kv.value() * sizeof(GgufKv) + n_tensors.value() * sizeof(GgufTensorInfo),
                  "the metadata and tensor tables"));
  std::set<std::string> keys;
  f.kv_.reserve(static_cast<size_t>(n_kv.value()));
  for (uint64_t k = 0; k < n_kv.value(); ++k) {
    Result<std::string> key = p.string("metadata key");
    if (!key) return key.error();
    if (key->empty() || key->size() > kMaxKeyLen) return p.cur.fail("metadata key length invalid");
    if (!gguf_name_ok(key.value())) {
      return p.cur.fail("metadata key " + std::to_string(k) + " is not printable UTF-8");
    }
    if (!keys.insert(key.value()).second) {
      return p.cur.fail("duplicate metadata key " + key.value());
    }
    Result<GgufValue> v = p.value(key.value());
    if (!v) return v.error();
    f.kv_.emplace_back(std::move(key.value()), std::move(v.value()));
  }
  if (const GgufValue* a = f.find("general.alignment")) {
    if (a->type != GgufValueType::UInt32 || a->u == 0 || (a->u & (a->u - 1)) != 0) {
      return make_error(name + ": general.alignment must be a uint32 power of two, got " +
                        a->describe());
    }
    f.alignment_ = static_cast<uint32_t>(a->u);
  }
  std::set<std::string> names;
  f.tensors_.reserve(static_cast<size_t>(n_tensors.value()));
  for (uint64_t k = 0; k < n_tensors.value(); ++k) {
    Result<GgufTensorInfo> t = p.tensor_info(k);
    if (!t) return t.error();
    if (!names.insert(t->name).second) return p.cur.fail("duplicate tensor name " + t->name);
    f.tensors_.push_back(std::move(t.value()));
  }
  const uint64_t end = p.cur.pos();
  f.data_offset_ = (end + f.alignment_ - 1) / f.alignment_ * f.alignment_;
  TS_TRY(check_layout(f, f.tensors_));
  return f;
}

const GgufValue* GgufFile::find(const std::string& key) const {
  for (const GgufKv& kv : kv_) {
    if (kv.first == key) return &kv.second;
  }
  return nullptr;
}

const GgufTensorInfo* GgufFile::find_tensor(const std::string& name) const {
  for (const GgufTensorInfo& t : tensors_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

Result<std::vector<uint8_t>> GgufFile::read_tensor_bytes(const GgufTensorInfo& t) const {
  std::vector<uint8_t> bytes(static_cast<size_t>(t.n_bytes));  // checked against the file at open
  TS_TRY(src_.read_at(data_offset_ + t.offset, bytes.data(), bytes.size(), t.name.c_str()));
  return bytes;
}

Status GgufFile::check_tensor_f32(const GgufTensorInfo& t) const {
  const auto type = static_cast<GgmlType>(t.type);
  if (!ggml_type_convertible(type)) {
    return make_error(name() + ": tensor " + t.name + " has type " + ggml_type_name(t.type) +
                      ", which tokenscope cannot load (F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0,"
                      " Q5_1, Q4_K, Q5_K and Q6_K only)");
  }
  // n_bytes was derived from the shape and the type's block size at open; check it again here
  // since the decoder reads exactly that many bytes.
  if (t.n_elements % ggml_block_len(type) != 0 || ggml_bytes(type, t.n_elements) != t.n_bytes) {
    return make_error(name() + ": tensor " + t.name + ": " + std::to_string(t.n_elements) +
                      " values do not fill whole " + ggml_type_name(t.type) + " blocks");
  }
  return ok_status();
}

Status GgufFile::check_tensor_finite(const GgufTensorInfo& t) const {
  TS_TRY(check_tensor_f32(t));
  const auto type = static_cast<GgmlType>(t.type);
  const uint64_t block_len = ggml_block_len(type), block_bytes = ggml_bytes(type, block_len);
  const uint64_t per_chunk = std::max<uint64_t>(1, (uint64_t{1} << 20) / block_bytes);
  const uint64_t n_blocks = t.n_elements / block_len;
  std::vector<uint8_t> raw;
  std::vector<float> vals;
  for (uint64_t b = 0; b < n_blocks; b += per_chunk) {
    const uint64_t nb = std::min(per_chunk, n_blocks - b);
    raw.resize(static_cast<size_t>(nb * block_bytes));
    vals.resize(static_cast<size_t>(nb * block_len));
    TS_TRY(src_.read_at(data_offset_ + t.offset + b * block_bytes, raw.data(), raw.size(),
                        t.name.c_str()));
    Status st = ggml_to_f32(type, raw.data(), vals.size(), vals.data());
    if (!st) return make_error(name() + ": tensor " + t.name + ": " + st.error().message);
    for (size_t k = 0; k < vals.size(); ++k) {
      if (!std::isfinite(vals[k])) {
        return make_error(name() + ": tensor " + t.name + " has " +
                          (std::isnan(vals[k]) ? "a NaN" : "an infinite") + " value at index " +
                          std::to_string(b * block_len + k));
      }
    }
  }
  return ok_status();
}

Result<std::vector<float>> GgufFile::read_tensor_f32(const GgufTensorInfo& t) const {
  const auto type = static_cast<GgmlType>(t.type);
  TS_TRY(check_tensor_f32(t));
  Result<std::vector<uint8_t>> bytes = read_tensor_bytes(t);
  if (!bytes) return bytes.error();
  std::vector<float> out(static_cast<size_t>(t.n_elements));
  Status st = ggml_to_f32(type, bytes->data(), out.size(), out.data());
  if (!st) return make_error(name() + ": tensor " + t.name + ": " + st.error().message);
  return out;
}

}  // namespace ts
