// The prefill product of a quantized weight matrix (qmat.h) computed from its blocks with integer
// arithmetic, many activation rows (tokens) at once. The activation rows are quantized exactly as
// quantize_activation does (same scales, same levels) and packed 16 tokens to a group: one
// 512-bit vector holds 4 consecutive levels of each of 16 tokens, stored unsigned (level + 128).
// A tile of weight rows is unpacked once (nibbles to one signed level per byte, the small integer
// scales and mins read out), then each weight row's 4 levels at a time are broadcast against 16
// tokens and summed by VNNI `dpbusd` (unsigned x signed bytes, 4 products per int32 lane): the
// tokens are the vector lanes, so a sub-block's scale is one integer multiply per 16 tokens, and
// the float scales one convert and FMA per 16 tokens and block. The +128 of the activation comes
// back as 128 x (Σ scale x Σ level), a constant of the weight row; Q4_K / Q5_K's mins use the
// activation's sub-block sums (dpwssd). Every output is computed by the same instructions in the
// same order wherever its row and token fall in the tiles, so results do not depend on the
// thread count, the row split or the number of tokens. Built where AVX-512 with VNNI is there;
// elsewhere qtile_available() is false and the caller keeps its own path.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/quant/qmat.h"

namespace ts {

constexpr int kTileTokens = 16;  // tokens per packed group (the lanes of a vector)

struct QTileActivation {
  int rows = 0, cols = 0;       // (rows, cols): tokens x values
  int block = 32;               // values per scale: 32 (Q8_0, Q4_0) or 256 (K-quants)
  int groups = 0;               // ceil(rows / 16); the last group's missing tokens are zeros
  std::vector<uint8_t> q;       // (groups, cols / 4, 16, 4) levels + 128
  std::vector<float> d;         // (groups, cols / block, 16) scales
  std::vector<int32_t> sums;    // block 256: (groups, cols / 64, 16) the level sums of two
                                // 32-value sub-blocks 2i, 2i + 1 as int16 pairs (low, high)
};

// True when the tile kernels are compiled in (AVX-512 with VNNI).
bool qtile_available();

// Sizes `a` for rows x cols at `block` values per scale (no packing yet).
void qtile_prepare(QTileActivation& a, int rows, int cols, int block);
// Quantizes and packs token groups [g_begin, g_end) of x (row t at x + t * ldx); groups can be
// packed by different threads. Needs qtile_available().
void qtile_pack(const float* x, int ldx, QTileActivation& a, int g_begin, int g_end);

// y(t, r) = W row r · activation row t (+ bias[r]; y += ... when accumulate) for weight rows
// [row_begin, row_end) and every token t; y row t at y + t * ldy. bias may be nullptr.
// a.block must be qtype_act_block(w.type). Needs qtile_available().
void qtile_rows(const QMat& w, const QTileActivation& a, int row_begin, int row_end, float* y,
                int ldy, const float* bias, bool accumulate);

}  // namespace ts
