// ggml type table and the fp32 conversions: F16, BF16 and Q8_0 here (Q8_0 rounds like ggml's
// reference quantiser: scale d = amax / 127, q = round(x / d), so a round trip is within
// q8_0_max_error(amax) of the input), Q4_0, Q4_1, Q5_0, Q5_1 and the K-quants through quant.h.
#include "formats/ggml_types.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/f16.h"
#include "formats/quant/quant.h"
#include "engine/quant/quant_blocks.h"

namespace ts {

namespace {

struct Row {
  uint32_t id;
  GgmlTypeInfo info;
};

// Block layouts as ggml defines them (QK_K = 256 values per super-block).
constexpr Row kTypes[] = {
    {0, {"F32", 1, 4}},         {1, {"F16", 1, 2}},         {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},      {6, {"Q5_0", 32, 22}},      {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},      {9, {"Q8_1", 32, 36}},      {10, {"Q2_K", 256, 84}},
    {11, {"Q3_K", 256, 110}},   {12, {"Q4_K", 256, 144}},   {13, {"Q5_K", 256, 176}},
    {14, {"Q6_K", 256, 210}},   {15, {"Q8_K", 256, 292}},   {16, {"IQ2_XXS", 256, 66}},
    {17, {"IQ2_XS", 256, 74}},  {18, {"IQ3_XXS", 256, 98}}, {19, {"IQ1_S", 256, 50}},
    {20, {"IQ4_NL", 32, 18}},   {21, {"IQ3_S", 256, 110}},  {22, {"IQ2_S", 256, 82}},
    {23, {"IQ4_XS", 256, 136}}, {24, {"I8", 1, 1}},         {25, {"I16", 1, 2}},
    {26, {"I32", 1, 4}},        {27, {"I64", 1, 8}},        {28, {"F64", 1, 8}},
    {29, {"IQ1_M", 256, 56}},   {30, {"BF16", 1, 2}},       {34, {"TQ1_0", 256, 54}},
    {35, {"TQ2_0", 256, 66}},
};

// The block types decoded and encoded by a pair of functions over whole blocks.
struct BlockCodec {
  GgmlType type;
  size_t block_len;
  void (*decode)(const uint8_t*, size_t, float*);
  std::vector<uint8_t> (*encode)(std::span<const float>);
};

constexpr BlockCodec kCodecs[] = {
    {GgmlType::Q8_0, kQ8_0Block, dequantize_q8_0, quantize_q8_0},
    {GgmlType::Q4_0, kQ4_0Block, dequantize_q4_0, quantize_q4_0},
    {GgmlType::Q4_1, kQ4_0Block, dequantize_q4_1, quantize_q4_1},
    {GgmlType::Q5_0, kQ4_0Block, dequantize_q5_0, quantize_q5_0},
    {GgmlType::Q5_1, kQ4_0Block, dequantize_q5_1, quantize_q5_1},
    {GgmlType::Q4_K, kQK, dequantize_q4_k, quantize_q4_k},
    {GgmlType::Q5_K, kQK, dequantize_q5_k, quantize_q5_k},
    {GgmlType::Q6_K, kQK, dequantize_q6_k, quantize_q6_k},
};

const BlockCodec* block_codec(GgmlType t) {
  for (const BlockCodec& c : kCodecs) {
    if (c.type == t) return &c;
  }
  return nullptr;
}

constexpr const char* kReadable = "F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K";
constexpr const char* kWritable = "F32, F16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K";

}  // namespace

const GgmlTypeInfo* ggml_type_info(uint32_t type) {
  for (const Row& r : kTypes) {
    if (r.id == type) return &r.info;
  }
  return nullptr;
}

std::string ggml_type_name(uint32_t type) {
  const GgmlTypeInfo* info = ggml_type_info(type);
  return info ? std::string(info->name) : "type " + std::to_string(type);
}

bool ggml_type_convertible(GgmlType t) {
  return t == GgmlType::F32 || t == GgmlType::F16 || t == GgmlType::BF16 ||
         block_codec(t) != nullptr;
}

bool ggml_type_writable(GgmlType t) {
  return t == GgmlType::F32 || t == GgmlType::F16 || block_codec(t) != nullptr;
}

size_t ggml_block_len(GgmlType t) {
  const GgmlTypeInfo* info = ggml_type_info(static_cast<uint32_t>(t));
  return info ? info->block_len : 1;
}

size_t ggml_bytes(GgmlType t, size_t n) {
  const GgmlTypeInfo* info = ggml_type_info(static_cast<uint32_t>(t));
  return info ? n / info->block_len * info->block_bytes : 0;
}

std::vector<uint8_t> quantize_q8_0(std::span<const float> x) {
  const size_t nb = x.size() / kQ8_0Block;
  std::vector<uint8_t> out(nb * kQ8_0Bytes);
  for (size_t b = 0; b < nb; ++b) {
    const float* v = x.data() + b * kQ8_0Block;  // (32)
    float amax = 0.0f;
    for (size_t j = 0; j < kQ8_0Block; ++j) amax = std::max(amax, std::fabs(v[j]));
    const float d = amax / 127.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    uint8_t* blk = out.data() + b * kQ8_0Bytes;
    const uint16_t dh = f32_to_f16(d);
    std::memcpy(blk, &dh, 2);
    for (size_t j = 0; j < kQ8_0Block; ++j) {
      const float q = std::round(v[j] * id);
      const auto qi = static_cast<int8_t>(std::max(-127.0f, std::min(127.0f, q)));
      std::memcpy(blk + 2 + j, &qi, 1);
    }
  }
  return out;
}

void dequantize_q8_0(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQ8_0Block; ++b) {
    decode_q8_0_block(blocks + b * kQ8_0Bytes, out + b * kQ8_0Block);
  }
}

Status ggml_to_f32(GgmlType t, const uint8_t* src, size_t n, float* out) {
  switch (t) {
    case GgmlType::F32:
      std::memcpy(out, src, n * 4);
      return ok_status();
    case GgmlType::F16:
    case GgmlType::BF16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        out[i] = t == GgmlType::F16 ? f16_to_f32(h) : bf16_to_f32(h);
      }
      return ok_status();
    default:
      break;
  }
  const BlockCodec* c = block_codec(t);
  const std::string name = ggml_type_name(static_cast<uint32_t>(t));
  if (!c) return make_error("tensor type " + name + " is not supported (" + kReadable + " are)");
  if (n % c->block_len != 0) {
    return make_error(name + ": value count " + std::to_string(n) + " is not a multiple of " +
                      std::to_string(c->block_len));
  }
  c->decode(src, n, out);
  return ok_status();
}

Result<std::vector<uint8_t>> ggml_from_f32(GgmlType t, std::span<const float> x) {
  std::vector<uint8_t> out;
  switch (t) {
    case GgmlType::F32:
      out.resize(x.size() * 4);
      if (!x.empty()) std::memcpy(out.data(), x.data(), out.size());
      return out;
    case GgmlType::F16:
      out.resize(x.size() * 2);
      for (size_t i = 0; i < x.size(); ++i) {
        const uint16_t h = f32_to_f16(x[i]);
        std::memcpy(out.data() + 2 * i, &h, 2);
      }
      return out;
    default:
      break;
  }
  const BlockCodec* c = block_codec(t);
  const std::string name = ggml_type_name(static_cast<uint32_t>(t));
  if (!c) {
    return make_error("writing tensor type " + name + " is not supported (" + kWritable + " are)");
  }
  if (x.size() % c->block_len != 0) {
    return make_error(name + " needs a multiple of " + std::to_string(c->block_len) +
                      " values, got " + std::to_string(x.size()));
  }
  for (size_t i = 0; i < x.size(); ++i) {  // the quantisers assume finite input
    if (!std::isfinite(x[i])) {
      return make_error(name + ": value " + std::to_string(i) + " is not finite");
    }
  }
  return c->encode(x);
}

}  // namespace ts
