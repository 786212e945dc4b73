// The ggml block quantisations tokenscope reads beyond Q8_0: Q4_0, Q4_1, Q5_0, Q5_1 and the
// K-quants Q4_K, Q5_K and Q6_K. Q8_0, Q4_0, Q4_K, Q5_K and Q6_K matrices are computed from
// their blocks (engine/quant/qmat.h; the block decoders live in engine/quant/quant_blocks.h and
// these dequantizers use them); the others are decoded to fp32 at load. Each has a plain reference
// quantiser so tests and the GGUF writer can produce them.
// Byte layouts follow ggml exactly (ggml-common.h / ggml-quants.c); the per-type files describe
// them:
//   Q4_0  32 values,  18 bytes: fp16 d, 16 bytes of nibbles            w = (q - 8) * d
//   Q4_1  32 values,  20 bytes: fp16 d, fp16 m, 16 bytes of nibbles    w = q * d + m
//   Q5_0  32 values,  22 bytes: fp16 d, 4 bytes of fifth bits (qh), nibbles   w = (q - 16) * d
//   Q5_1  32 values,  24 bytes: fp16 d, fp16 m, qh, nibbles           w = q * d + m
//   Q4_K 256 values, 144 bytes: fp16 d, dmin, 12 bytes of 6-bit scale/min pairs, 128 of nibbles
//   Q5_K 256 values, 176 bytes: like Q4_K plus 32 bytes of fifth bits (qh) before the nibbles
//   Q6_K 256 values, 210 bytes: 128 bytes low nibbles, 64 bytes high 2-bit pairs, 16 int8
//                               scales, fp16 d                        w = d * scale * (q - 32)
// All functions take n = a whole number of blocks (the callers check).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ts {

constexpr size_t kQ4_0Block = 32;
constexpr size_t kQ4_0Bytes = 18;
constexpr size_t kQ4_1Bytes = 20;  // Q4_1, Q5_0 and Q5_1 blocks hold kQ4_0Block values too
constexpr size_t kQ5_0Bytes = 22;
constexpr size_t kQ5_1Bytes = 24;
constexpr size_t kQK = 256;  // values per K-quant super-block (ggml's QK_K)
constexpr size_t kQ4_KBytes = 144;
constexpr size_t kQ5_KBytes = 176;
constexpr size_t kQ6_KBytes = 210;

// The signed value of largest magnitude among n values (the first such, 0 for none): Q4_0 and
// Q5_0 put it on level 0 (d = peak / -8, peak / -16), as ggml's reference quantisers do.
float signed_peak(const float* v, size_t n);

std::vector<uint8_t> quantize_q4_0(std::span<const float> x);
void dequantize_q4_0(const uint8_t* blocks, size_t n, float* out);

std::vector<uint8_t> quantize_q4_1(std::span<const float> x);
void dequantize_q4_1(const uint8_t* blocks, size_t n, float* out);

std::vector<uint8_t> quantize_q5_0(std::span<const float> x);
void dequantize_q5_0(const uint8_t* blocks, size_t n, float* out);

std::vector<uint8_t> quantize_q5_1(std::span<const float> x);
void dequantize_q5_1(const uint8_t* blocks, size_t n, float* out);

std::vector<uint8_t> quantize_q4_k(std::span<const float> x);
void dequantize_q4_k(const uint8_t* blocks, size_t n, float* out);

std::vector<uint8_t> quantize_q5_k(std::span<const float> x);
void dequantize_q5_k(const uint8_t* blocks, size_t n, float* out);

std::vector<uint8_t> quantize_q6_k(std::span<const float> x);
void dequantize_q6_k(const uint8_t* blocks, size_t n, float* out);

}  // namespace ts
