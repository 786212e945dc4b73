// Quantized tensor types, block by block: each type's block size, one block of each built byte by
// byte and decoded to exact values (the layouts of ggml-common.h), and the K-quants' 6-bit scale packing.
#include <doctest/doctest.h>

#include "quant_test_util.h"

using namespace ts;
using namespace ts::quant_test;


TEST_CASE("quant: block sizes as ggml defines them") {
  CHECK(ggml_bytes(GgmlType::Q4_0, 32) == kQ4_0Bytes);
  CHECK(ggml_bytes(GgmlType::Q4_1, 32) == kQ4_1Bytes);
  CHECK(ggml_bytes(GgmlType::Q5_0, 32) == kQ5_0Bytes);
  CHECK(ggml_bytes(GgmlType::Q5_1, 32) == kQ5_1Bytes);
  CHECK(kQ4_1Bytes == 2 + 2 + 16);
  CHECK(kQ5_0Bytes == 2 + 4 + 16);
  CHECK(kQ5_1Bytes == 2 + 2 + 4 + 16);
  CHECK(ggml_bytes(GgmlType::Q4_K, 256) == kQ4_KBytes);
  CHECK(ggml_bytes(GgmlType::Q5_K, 256) == kQ5_KBytes);
  CHECK(ggml_bytes(GgmlType::Q6_K, 256) == kQ6_KBytes);
  CHECK(kQ4_KBytes == 2 + 2 + 12 + 128);
  CHECK(kQ5_KBytes == 2 + 2 + 12 + 32 + 128);
  CHECK(kQ6_KBytes == 128 + 64 + 16 + 2);
  for (GgmlType t : {GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q5_0, GgmlType::Q5_1, GgmlType::Q4_K,
                     GgmlType::Q5_K, GgmlType::Q6_K}) {
    CHECK(ggml_type_convertible(t));
    CHECK(ggml_type_writable(t));
  }
  CHECK_FALSE(ggml_type_convertible(GgmlType::Q2_K));
  CHECK_FALSE(ggml_type_writable(GgmlType::BF16));
}

TEST_CASE("quant: Q4_0 block by hand") {
  std::vector<uint8_t> b(kQ4_0Bytes, 0x88);  // every level 8: value 0
  put_f16(b, 0, 0.5f);
  b[2] = 0x1F;   // value 0: level 15 -> 3.5; value 16: level 1 -> -3.5
  b[3] = 0x80;   // value 1: level 0 -> -4; value 17: level 8 -> 0
  b[17] = 0xF0;  // value 15: level 0 -> -4; value 31: level 15 -> 3.5
  const std::vector<float> y = decode(GgmlType::Q4_0, b, 32);
  CHECK(y[0] == 3.5f);
  CHECK(y[16] == -3.5f);
  CHECK(y[1] == -4.0f);
  CHECK(y[17] == 0.0f);
  CHECK(y[15] == -4.0f);
  CHECK(y[31] == 3.5f);
  for (int i : {2, 3, 14, 18, 30}) CHECK(y[i] == 0.0f);

  // The quantiser puts the value of largest magnitude exactly on level 0 (d = -peak / 8).
  std::vector<float> x(32, 0.0f);
  x[0] = -8.0f;
  x[1] = 3.0f;
  x[20] = 7.0f;
  const std::vector<uint8_t> q = quantize_q4_0(x);
  REQUIRE(q.size() == kQ4_0Bytes);
  uint16_t dh;
  std::memcpy(&dh, q.data(), 2);
  CHECK(f16_to_f32(dh) == 1.0f);
  CHECK((q[2] & 15) == 0);   // -8 / 1 + 8
  CHECK((q[3] & 15) == 11);  // 3 + 8
  CHECK((q[6] >> 4) == 15);  // value 20: 7 + 8
  const std::vector<float> back = decode(GgmlType::Q4_0, q, 32);
  CHECK(back == x);
}

TEST_CASE("quant: Q4_1 block by hand") {
  std::vector<uint8_t> b(kQ4_1Bytes, 0);  // every level 0: value m
  put_f16(b, 0, 0.5f);                    // d
  put_f16(b, 2, -1.0f);                   // m
  b[4] = 0x3F;                            // value 0: level 15 -> 6.5; value 16: level 3 -> 0.5
  b[4 + 15] = 0xA0;                       // value 15: level 0 -> -1; value 31: level 10 -> 4
  const std::vector<float> y = decode(GgmlType::Q4_1, b, 32);
  CHECK(y[0] == 6.5f);
  CHECK(y[16] == 0.5f);
  CHECK(y[15] == -1.0f);
  CHECK(y[31] == 4.0f);
  for (int i : {1, 2, 14, 17, 30}) CHECK(y[i] == -1.0f);

  // The quantiser maps the block's minimum to m and its range onto levels 0..15.
  std::vector<float> x(32);
  for (size_t i = 0; i < 32; ++i) x[i] = static_cast<float>(i % 16) - 1.0f;  // -1 .. 14
  const std::vector<uint8_t> q = quantize_q4_1(x);
  REQUIRE(q.size() == kQ4_1Bytes);
  uint16_t dh, mh;
  std::memcpy(&dh, q.data(), 2);
  std::memcpy(&mh, q.data() + 2, 2);
  CHECK(f16_to_f32(dh) == 1.0f);
  CHECK(f16_to_f32(mh) == -1.0f);
  CHECK(q[4] == 0x00);       // values 0 and 16: level 0
  CHECK(q[4 + 15] == 0xFF);  // values 15 and 31: level 15
  CHECK(decode(GgmlType::Q4_1, q, 32) == x);
}

// Q5_0 / Q5_1: qh is a little-endian uint32 whose bit i is the fifth bit of value i; byte j of
// the nibbles holds value j (low) and value j + 16 (high), as in Q4_0.
TEST_CASE("quant: Q5_0 block by hand") {
  std::vector<uint8_t> b(kQ5_0Bytes, 0);  // every level 0: value -16 d
  put_f16(b, 0, 0.25f);
  b[2] = 0x01;       // qh bit 0: value 0
  b[3] = 0x01;       // qh bit 8: value 8
  b[4] = 0x01;       // qh bit 16: value 16
  b[5] = 0x80;       // qh bit 31: value 31
  b[6] = 0x2F;       // value 0: low nibble 15; value 16: high nibble 2
  b[6 + 15] = 0xF0;  // value 15: 0; value 31: 15
  const std::vector<float> y = decode(GgmlType::Q5_0, b, 32);
  CHECK(y[0] == 0.25f * (31 - 16));   // 3.75
  CHECK(y[16] == 0.25f * (18 - 16));  // 0.5
  CHECK(y[8] == 0.0f);                // level 16
  CHECK(y[15] == -4.0f);              // level 0
  CHECK(y[31] == 3.75f);
  for (int i : {1, 7, 9, 17, 24, 30}) CHECK(y[i] == -4.0f);

  // The quantiser puts the value of largest magnitude exactly on level 0 (d = -peak / 16).
  std::vector<float> x(32, 0.0f);
  x[0] = -16.0f;
  x[5] = 15.0f;
  x[20] = 3.0f;
  const std::vector<uint8_t> q = quantize_q5_0(x);
  REQUIRE(q.size() == kQ5_0Bytes);
  uint16_t dh;
  std::memcpy(&dh, q.data(), 2);
  CHECK(f16_to_f32(dh) == 1.0f);
  uint32_t qh;
  std::memcpy(&qh, q.data() + 2, 4);
  CHECK((q[6] & 15) == 0);  // value 0: level 0
  CHECK((qh & 1) == 0);
  CHECK((q[6 + 5] & 15) == 15);  // value 5: level 31
  CHECK(((qh >> 5) & 1) == 1);
  CHECK((q[6 + 4] >> 4) == 3);  // value 20: level 19
  CHECK(((qh >> 20) & 1) == 1);
  CHECK(decode(GgmlType::Q5_0, q, 32) == x);
}

TEST_CASE("quant: Q5_1 block by hand") {
  std::vector<uint8_t> b(kQ5_1Bytes, 0);  // every level 0: value m
  put_f16(b, 0, 2.0f);                    // d
  put_f16(b, 2, -3.0f);                   // m
  b[4] = 0x01;                            // qh bit 0: value 0
  b[6] = 0x01;                            // qh bit 16: value 16
  b[7] = 0x40;                            // qh bit 30: value 30
  b[8] = 0x15;                            // value 0: 5 | 16 = 21; value 16: 1 | 16 = 17
  b[8 + 14] = 0x7C;                       // value 14: 12; value 30: 7 | 16 = 23
  const std::vector<float> y = decode(GgmlType::Q5_1, b, 32);
  CHECK(y[0] == 2.0f * 21 - 3.0f);   // 39
  CHECK(y[16] == 2.0f * 17 - 3.0f);  // 31
  CHECK(y[14] == 2.0f * 12 - 3.0f);  // 21
  CHECK(y[30] == 2.0f * 23 - 3.0f);  // 43
  for (int i : {1, 15, 17, 31}) CHECK(y[i] == -3.0f);

  std::vector<float> x(32);
  for (size_t i = 0; i < 32; ++i) x[i] = static_cast<float>(i) - 2.0f;  // -2 .. 29: levels 0..31
  const std::vector<uint8_t> q = quantize_q5_1(x);
  REQUIRE(q.size() == kQ5_1Bytes);
  uint32_t qh;
  std::memcpy(&qh, q.data() + 4, 4);
  CHECK(qh == 0xFFFF0000u);  // values 16..31 are levels 16..31
  CHECK(q[8] == 0x00);       // value 0 level 0, value 16 level 16 (nibble 0)
  CHECK(q[8 + 15] == 0xFF);  // value 15 level 15, value 31 level 31
  CHECK(decode(GgmlType::Q5_1, q, 32) == x);
}

TEST_CASE("quant: K-quant 6-bit scale packing") {
  // Every (scale, min) value in every slot survives pack -> unpack.
  for (int v = 0; v < 64; ++v) {
    int scales[8], mins[8];
    for (int j = 0; j < 8; ++j) {
      scales[j] = (v + 7 * j) % 64;
      mins[j] = (63 - v + 5 * j) % 64;
    }
    uint8_t packed[kKScaleBytes];
    kscale_pack(scales, mins, packed);
    for (int j = 0; j < 8; ++j) {
      int s = -1, m = -1;
      kscale_unpack(packed, j, s, m);
      CHECK(s == scales[j]);
      CHECK(m == mins[j]);
    }
  }
}

// Q4_K / Q5_K header used by the two hand tests below: d = 1, dmin = 0.5, and
// sub-block 0: scale 2, min 4; sub-block 1: scale 3, min 0; sub-block 5: scale 17, min 33
// (both need the top bits); every other pair is 0.
static void quant_k_header(std::vector<uint8_t>& b) {
  put_f16(b, 0, 1.0f);
  put_f16(b, 2, 0.5f);
  uint8_t* s = b.data() + 4;
  s[0] = 2;             // scale 0
  s[1] = 3 | (1 << 6);  // scale 1, and the top bits (17 >> 4 = 1) of scale 5
  s[4] = 4;             // min 0
  s[5] = 0 | (2 << 6);  // min 1, and the top bits (33 >> 4 = 2) of min 5
  s[9] = 1 | (1 << 4);  // low nibbles of scale 5 (17 & 15) and min 5 (33 & 15)
}

TEST_CASE("quant: Q4_K block by hand") {
  std::vector<uint8_t> b(kQ4_KBytes, 0);
  quant_k_header(b);
  uint8_t* qs = b.data() + 16;
  qs[0] = 0x5A;       // value 0 (sub-block 0, low nibble) 10; value 32 (sub-block 1, high) 5
  qs[64 + 3] = 0x70;  // value 163 (sub-block 5 = run 2 high nibble, l = 3): 7
  const std::vector<float> y = decode(GgmlType::Q4_K, b, 256);
  CHECK(y[0] == 1.0f * 2 * 10 - 0.5f * 4);  // 18
  CHECK(y[1] == -2.0f);                     // level 0 of sub-block 0: -dmin * 4
  CHECK(y[32] == 1.0f * 3 * 5);             // 15
  CHECK(y[33] == 0.0f);
  CHECK(y[163] == 1.0f * 17 * 7 - 0.5f * 33);  // 102.5
  CHECK(y[160] == -16.5f);
  CHECK(y[131] == 0.0f);  // sub-block 4: scale 0, min 0
  CHECK(y[255] == 0.0f);
}

TEST_CASE("quant: Q5_K block by hand") {
  std::vector<uint8_t> b(kQ5_KBytes, 0);
  quant_k_header(b);
  uint8_t* qh = b.data() + 16;
  uint8_t* qs = b.data() + 48;
  qs[0] = 0x5A;
  qs[64 + 3] = 0x70;
  qh[0] = 0x03;   // fifth bits of value 0 (sub-block 0) and value 32 (sub-block 1)
  qh[3] = 0x20;   // fifth bit of value 163 (sub-block 5)
  qh[31] = 0x02;  // fifth bit of value 63 (sub-block 1, l = 31)
  const std::vector<float> y = decode(GgmlType::Q5_K, b, 256);
  CHECK(y[0] == 1.0f * 2 * 26 - 0.5f * 4);      // 50
  CHECK(y[32] == 1.0f * 3 * 21);                // 63
  CHECK(y[163] == 1.0f * 17 * 23 - 0.5f * 33);  // 374.5
  CHECK(y[63] == 1.0f * 3 * 16);                // 48
  CHECK(y[1] == -2.0f);
  CHECK(y[31] == -2.0f);  // qh[31] bit 0 is clear
}

TEST_CASE("quant: Q6_K block by hand") {
  std::vector<uint8_t> b(kQ6_KBytes, 0);
  uint8_t* ql = b.data();
  uint8_t* qh = b.data() + 128;
  auto* sc = reinterpret_cast<int8_t*>(b.data() + 192);
  put_f16(b, 208, 0.25f);
  sc[0] = 4;                        // values 0..15
  sc[2] = -2;                       // values 32..47
  sc[4] = 3;                        // values 64..79
  sc[8] = 1;                        // values 128..143
  ql[0] = 0x21;                     // value 0 low bits 1; value 64 low bits 2
  ql[32] = 0x0F;                    // value 32 low bits 15; value 96 low bits 0
  qh[0] = 1 | (2 << 2) | (3 << 4);  // top bits: value 0 -> 1, value 32 -> 2, value 64 -> 3
  qh[32 + 1] = 2 << 6;              // top bits of value 128 + 96 + 1 = 225
  ql[64 + 32 + 1] = 0x50;           // value 225 low bits 5 (high nibble of ql[97])
  sc[14] = -1;                      // values 224..239
  const std::vector<float> y = decode(GgmlType::Q6_K, b, 256);
  CHECK(y[0] == 0.25f * 4 * (17 - 32));     // -15
  CHECK(y[1] == 0.25f * 4 * -32);           // -32: level 0
  CHECK(y[32] == 0.25f * -2 * (47 - 32));   // -7.5
  CHECK(y[64] == 0.25f * 3 * (50 - 32));    // 13.5
  CHECK(y[96] == 0.0f);                     // scale 0
  CHECK(y[128] == 0.25f * 1 * -32);         // -8
  CHECK(y[225] == 0.25f * -1 * (37 - 32));  // -1.25
  CHECK(y[224] == 0.25f * -1 * -32);        // 8
}
