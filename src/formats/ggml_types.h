// ggml tensor element types as GGUF stores them: ids, names, block sizes (so a reader can check
// the layout of any tensor), and conversion to and from fp32 for the types tokenscope computes
// with: F32, F16, BF16, Q8_0 (blocks of 32 int8 values sharing one fp16 scale), and Q4_0, Q4_1,
// Q5_0, Q5_1, Q4_K, Q5_K, Q6_K (quant.h). Other types (Q2_K, Q3_K, IQ, ...) are recognised and
// sized but not converted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"

namespace ts {

enum class GgmlType : uint32_t {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q8_1 = 9,
  Q2_K = 10,
  Q3_K = 11,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  Q8_K = 15,
  IQ2_XXS = 16,
  IQ2_XS = 17,
  IQ3_XXS = 18,
  IQ1_S = 19,
  IQ4_NL = 20,
  IQ3_S = 21,
  IQ2_S = 22,
  IQ4_XS = 23,
  I8 = 24,
  I16 = 25,
  I32 = 26,
  I64 = 27,
  F64 = 28,
  IQ1_M = 29,
  BF16 = 30,
  TQ1_0 = 34,
  TQ2_0 = 35,
};

struct GgmlTypeInfo {
  const char* name;    // "F32", "Q8_0", ...
  uint32_t block_len;  // values per block (1 for plain types)
  uint32_t block_bytes;
};

// nullptr for an id this table does not know.
const GgmlTypeInfo* ggml_type_info(uint32_t type);
std::string ggml_type_name(uint32_t type);  // "Q4_K", or "type 99" when unknown
// True for the types ggml_to_f32 decodes, and for those ggml_from_f32 encodes (not BF16).
bool ggml_type_convertible(GgmlType t);
bool ggml_type_writable(GgmlType t);
// Values per block (1 for plain types and for ids the table does not know).
size_t ggml_block_len(GgmlType t);

constexpr size_t kQ8_0Block = 32;  // values per Q8_0 block
constexpr size_t kQ8_0Bytes = 34;  // fp16 scale + 32 int8
// Largest absolute error of a Q8_0 round trip for a block whose largest |x| is amax: half a
// quantisation step (amax/127/2) plus the fp16 rounding of the scale (up to 2^-11 relative).
inline float q8_0_max_error(float amax) { return amax / 127.0f * (0.5f + 127.0f / 2048.0f); }

// Bytes that n values of type t take (n must be a multiple of the block length).
size_t ggml_bytes(GgmlType t, size_t n);
// Decodes n values (a multiple of the block length) into out; error for other types.
Status ggml_to_f32(GgmlType t, const uint8_t* src, size_t n, float* out);
// Encodes n values (a multiple of the block length) of a writable type.
Result<std::vector<uint8_t>> ggml_from_f32(GgmlType t, std::span<const float> x);

// Q8_0 on its own, for tests and the writer: x.size() must be a multiple of 32.
std::vector<uint8_t> quantize_q8_0(std::span<const float> x);
void dequantize_q8_0(const uint8_t* blocks, size_t n, float* out);

}  // namespace ts
