// The AVX2 dot products of quant_dot.cpp, compiled here without AVX-512 (tests/CMakeLists.txt:
// -mno-avx512f), so that the path CPUs without AVX-512 take is tested on a machine that has it.
// Every type, random blocks with sane scales: qdot_row equals the plain loops
// (qdot_row_scalar) up to float summation order, and qdot_rows equals qdot_row bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "base/f16.h"
#include "base/rng.h"
#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_dot.h"

using namespace ts;

namespace {

struct Kind {
  QType type;
  int values, bytes;  // per block
  void (*decode)(const uint8_t*, float*);
};
const Kind kKinds[] = {{QType::Q8_0, kQ8_0Values, kQ8_0BlockBytes, decode_q8_0_block},
                       {QType::Q4_0, kQ4_0Values, kQ4_0BlockBytes, decode_q4_0_block},
                       {QType::Q4_K, kKValues, kQ4_KBlockBytes, decode_q4_k_block},
                       {QType::Q5_K, kKValues, kQ5_KBlockBytes, decode_q5_k_block},
                       {QType::Q6_K, kKValues, kQ6_KBlockBytes, decode_q6_k_block}};

void put_half(uint8_t* p, float v) {
  const uint16_t h = f32_to_f16(v);
  std::memcpy(p, &h, 2);
}

// Random bytes for the levels; the fp16 scales replaced by small finite ones.
std::vector<uint8_t> random_blocks(const Kind& k, int n_blocks, SplitMix& rng) {
  std::vector<uint8_t> b(static_cast<size_t>(n_blocks) * k.bytes);
  for (uint8_t& x : b) x = static_cast<uint8_t>(rng.next() & 0xff);
  for (int i = 0; i < n_blocks; ++i) {
    uint8_t* blk = b.data() + static_cast<size_t>(i) * k.bytes;
    const float d = static_cast<float>(0.001 + 0.01 * rng.uniform());
    if (k.type == QType::Q6_K) {
      put_half(blk + kQ6KDAt, d);
    } else {
      put_half(blk, d);
      if (k.type == QType::Q4_K || k.type == QType::Q5_K) put_half(blk + 2, d * 0.5f);
    }
  }
  return b;
}

}  // namespace

TEST_CASE("qdot (AVX2 build): the kernels compiled here are the AVX2 ones") {
  CHECK(std::string(qdot_kernels()) == "AVX2");
}

TEST_CASE("qdot (AVX2 build): every type equals the plain loops; rows together equal rows alone") {
  SplitMix rng(7);
  for (const Kind& k : kKinds) {
    CAPTURE(static_cast<int>(k.type));
    for (int n_blocks : {1, 3, 4, 5, 8}) {
      const int cols = n_blocks * k.values, rows = 6;
      CAPTURE(cols);
      const std::vector<uint8_t> w = random_blocks(k, n_blocks * rows, rng);
      // The activation: int8 levels, a scale per block of 32 (per 256 for the K-quants) and
      // the 16-value sums, as quantize_activation lays them out.
      const int act_block = k.values;
      std::vector<int8_t> q(cols);
      for (int8_t& v : q) v = static_cast<int8_t>(static_cast<int>(rng.next() % 255) - 127);
      std::vector<float> d(cols / act_block);
      for (float& v : d) v = static_cast<float>(0.01 + rng.uniform());
      std::vector<int16_t> s16(cols / 16);
      for (int g = 0; g < cols / 16; ++g) {
        int sum = 0;
        for (int l = 0; l < 16; ++l) sum += q[16 * g + l];
        s16[g] = static_cast<int16_t>(sum);
      }
      const QActRow x{d.data(), q.data(), s16.data()};
      std::vector<float> alone(rows), wf(k.values);
      for (int r = 0; r < rows; ++r) {
        const uint8_t* row = w.data() + static_cast<size_t>(r) * n_blocks * k.bytes;
        double mag = 0.0;
        for (int b = 0; b < n_blocks; ++b) {
          k.decode(row + static_cast<size_t>(b) * k.bytes, wf.data());
          for (int l = 0; l < k.values; ++l) {
            const int i = b * k.values + l;
            mag += std::fabs(static_cast<double>(wf[l]) * q[i] * d[i / act_block]);
          }
        }
        alone[r] = qdot_row(k.type, row, cols, x);
        CHECK(std::fabs(alone[r] - qdot_row_scalar(k.type, row, cols, x)) <= 1e-5 * mag + 1e-6);
      }
      std::vector<float> y(rows + 1, -7.0f);
      qdot_rows(k.type, w.data(), static_cast<size_t>(n_blocks) * k.bytes, rows, cols, x, y.data());
      for (int r = 0; r < rows; ++r) CHECK(y[r] == alone[r]);
      CHECK(y[rows] == -7.0f);
    }
  }
}
