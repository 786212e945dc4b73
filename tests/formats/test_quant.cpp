// Tests of the Q4_0 / Q4_1 / Q5_0 / Q5_1 / Q4_K / Q5_K / Q6_K tensor types: one block of each built
// byte by byte and decoded to exact values (the layouts of ggml-common.h), the 6-bit scale packing,
// quantise -> GGUF -> read -> dequantise round trips within the bounds stated below, a small llama
// model saved as Q4_K, Q6_K, Q4_1, Q5_0 and Q5_1 whose logits stay close to the fp32 model's,
// one-line errors for truncated data and rows that do not fill whole blocks, and the refusal of a
// model whose fp32 weights exceed the (injected) available memory.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include "base/f16.h"
#include "base/rng.h"
#include "engine/forward.h"
#include "engine/model.h"
#include "formats/gguf.h"
#include "formats/gguf_model.h"
#include "formats/memory_budget.h"
#include "formats/model_file.h"
#include "formats/quant.h"
#include "formats/quant_k_scales.h"

using namespace ts;

namespace {

void put_f16(std::vector<uint8_t>& b, size_t at, float v) {
  const uint16_t h = f32_to_f16(v);
  std::memcpy(b.data() + at, &h, 2);
}

std::vector<float> decode(GgmlType t, const std::vector<uint8_t>& bytes, size_t n) {
  std::vector<float> out(n, -999.0f);
  Status st = ggml_to_f32(t, bytes.data(), n, out.data());
  REQUIRE_MESSAGE(st.ok(), st.error().message);
  return out;
}

std::vector<float> quant_test_normals(size_t n, uint64_t seed, double scale) {
  SplitMix rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.normal() * scale);
  return v;
}

// sqrt(sum (y - x)^2 / sum x^2).
double relative_rms(const float* x, const float* y, size_t n) {
  double err = 0.0, ref = 0.0;
  for (size_t i = 0; i < n; ++i) {
    err += (static_cast<double>(y[i]) - x[i]) * (static_cast<double>(y[i]) - x[i]);
    ref += static_cast<double>(x[i]) * x[i];
  }
  return ref > 0.0 ? std::sqrt(err / ref) : std::sqrt(err);
}

std::string quant_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ts_test_quant_" + name)).string();
}

ModelConfig quant_llama_config() {
  ModelConfig c;
  c.architecture = "llama";
  c.name = "tiny-quant";
  c.block = BlockType::Llama;
  c.rope = RopeStyle::Adjacent;
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.d_model = 256;  // every matrix row is a whole number of 256-value super-blocks
  c.d_ff = 512;
  c.vocab_size = 64;
  c.n_ctx = 16;
  c.norm_eps = 1e-5f;
  c.rope_theta = 10000.0f;
  c.tied_embeddings = false;
  return c;
}

// Every matrix ~ N(0, 0.05^2), every norm weight ~ 1 + N(0, 0.05^2).
Model quant_random_model(const ModelConfig& c, uint64_t seed) {
  Model m = allocate_model(c);
  SplitMix rng(seed);
  auto fill = [&](float* p, long n, float base) {
    for (long i = 0; i < n; ++i) p[i] = base + static_cast<float>(rng.normal() * 0.05);
  };
  Weights& w = m.weights;
  fill(w.tok_embd.data(), w.tok_embd.size(), 0.0f);
  fill(w.output.data(), w.output.size(), 0.0f);
  fill(w.out_norm.data(), w.out_norm.size(), 1.0f);
  for (LayerWeights& l : w.layers) {
    for (Mat* x : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) {
      fill(x->data(), x->size(), 0.0f);
    }
    fill(l.attn_norm.data(), l.attn_norm.size(), 1.0f);
    fill(l.ffn_norm.data(), l.ffn_norm.size(), 1.0f);
  }
  return m;
}

// A hand-made GGUF with one tensor of the given shape and type followed by `data_bytes` bytes.
std::vector<uint8_t> quant_one_tensor_file(std::vector<uint64_t> ne, GgmlType type,
                                           size_t data_bytes) {
  std::vector<uint8_t> b;
  auto pod = [&](auto v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof v);
  };
  b.insert(b.end(), {'G', 'G', 'U', 'F'});
  pod(uint32_t{3});
  pod(uint64_t{1});  // tensors
  pod(uint64_t{0});  // metadata
  const std::string name = "w";
  pod(uint64_t{name.size()});
  b.insert(b.end(), name.begin(), name.end());
  pod(static_cast<uint32_t>(ne.size()));
  for (uint64_t d : ne) pod(d);
  pod(static_cast<uint32_t>(type));
  pod(uint64_t{0});  // offset
  while (b.size() % 32) b.push_back(0);
  b.insert(b.end(), data_bytes, 0x33);
  return b;
}

void check_one_line_error(const std::string& m, const std::string& starts, const std::string& has) {
  CHECK_MESSAGE(m.rfind(starts, 0) == 0, m);
  CHECK_MESSAGE(m.find('\n') == std::string::npos, m);
  CHECK_MESSAGE(m.find(has) != std::string::npos, "expected '" << has << "' in: " << m);
}

}  // namespace

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

// Round trips through a GGUF file. Error bounds, as relative RMS error sqrt(sum e^2 / sum x^2)
// over Gaussian data: Q4_0 0.12, Q4_K 0.11, Q5_K 0.055, Q6_K 0.025 (measured with this
// quantiser: 0.086, 0.083, 0.040, 0.020, so 25% or more headroom); Q4_1 0.11, Q5_0 0.06,
// Q5_1 0.055 (measured 0.081, 0.043, 0.038). Each value also stays within
// its per-block worst case: about one quantisation step of its (sub-)block.
TEST_CASE("quant: quantise -> GGUF -> read -> dequantise round trips") {
  struct Case {
    GgmlType type;
    double rms_bound;
  };
  const Case cases[] = {{GgmlType::Q4_0, 0.12},  {GgmlType::Q4_K, 0.11}, {GgmlType::Q5_K, 0.055},
                        {GgmlType::Q6_K, 0.025}, {GgmlType::Q4_1, 0.11}, {GgmlType::Q5_0, 0.06},
                        {GgmlType::Q5_1, 0.055}};
  for (const Case& cs : cases) {
    CAPTURE(ggml_type_name(static_cast<uint32_t>(cs.type)));
    const std::vector<float> x = quant_test_normals(512 * 6, 17, 0.7);
    GgufWriter w;
    REQUIRE(w.add_tensor("w", {512, 6}, cs.type, x).ok());
    Result<std::vector<uint8_t>> bytes = w.to_bytes();
    REQUIRE(bytes.ok());
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(bytes.value(), "rt.gguf"));
    REQUIRE_MESSAGE(f.ok(), f.error().message);
    const GgufTensorInfo& t = f->tensors()[0];
    CHECK(t.type == static_cast<uint32_t>(cs.type));
    CHECK(t.n_bytes == ggml_bytes(cs.type, x.size()));
    Result<std::vector<float>> y = f->read_tensor_f32(t);
    REQUIRE_MESSAGE(y.ok(), y.error().message);
    REQUIRE(y->size() == x.size());
    const double rms = relative_rms(x.data(), y->data(), x.size());
    MESSAGE(ggml_type_name(static_cast<uint32_t>(cs.type)) << " relative RMS error " << rms);
    CHECK(rms < cs.rms_bound);
    CHECK(rms > 0.0);  // really quantised
    // Worst case per value: within one level step of its block, the step bounded by the
    // block's range over the level count (15 for 4-bit, 31 for 5-bit, 62 for Q6_K's -31..31).
    const size_t block = cs.type == GgmlType::Q6_K ? 16 : 32;
    const bool five_bit =
        cs.type == GgmlType::Q5_K || cs.type == GgmlType::Q5_0 || cs.type == GgmlType::Q5_1;
    const bool symmetric =
        cs.type == GgmlType::Q4_0 || cs.type == GgmlType::Q5_0 || cs.type == GgmlType::Q6_K;
    const double levels = five_bit ? 31 : cs.type == GgmlType::Q6_K ? 62 : 15;
    for (size_t b0 = 0; b0 < x.size(); b0 += block) {
      float lo = 0.0f, hi = 0.0f;
      for (size_t i = b0; i < b0 + block; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
      }
      const double range = symmetric ? 2.0 * std::max(-lo, hi) : static_cast<double>(hi - lo);
      // One step, plus the 6-bit rounding of the K-quant scale (up to 1/63 of the largest step
      // in the super-block, here at most the whole range of 3 sigma blocks: a loose 8%).
      const double allowed = range / levels * 1.08 + 1e-6;
      for (size_t i = b0; i < b0 + block; ++i) {
        if (std::fabs(y.value()[i] - x[i]) > allowed) {
          FAIL_CHECK("value " << i << ": " << x[i] << " -> " << y.value()[i]);
          break;
        }
      }
    }
  }
}

TEST_CASE("quant: special blocks: zeros, all positive, all negative, constant") {
  for (GgmlType t : {GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q5_0, GgmlType::Q5_1, GgmlType::Q4_K,
                     GgmlType::Q5_K, GgmlType::Q6_K}) {
    CAPTURE(ggml_type_name(static_cast<uint32_t>(t)));
    const std::vector<float> zeros(256, 0.0f);
    CHECK(decode(t, ggml_from_f32(t, zeros).value(), 256) == zeros);
    std::vector<float> pos(256), neg(256);
    for (size_t i = 0; i < 256; ++i) {
      pos[i] = 1.0f + static_cast<float>(i % 37) / 10.0f;
      neg[i] = -pos[i];
    }
    for (const std::vector<float>* x : {&pos, &neg}) {
      const std::vector<float> y = decode(t, ggml_from_f32(t, *x).value(), 256);
      CHECK(relative_rms(x->data(), y.data(), 256) < 0.12);
    }
    const std::vector<float> c(256, 0.75f);
    const std::vector<float> yc = decode(t, ggml_from_f32(t, c).value(), 256);
    CHECK(relative_rms(c.data(), yc.data(), 256) < 0.02);
  }
}

TEST_CASE("quant: a llama model saved as Q4_K / Q6_K / Q4_1 / Q5_0 / Q5_1 runs close to fp32") {
  const ModelConfig c = quant_llama_config();
  const Model m = quant_random_model(c, 5);
  const std::vector<int> tokens = {1, 7, 30, 2, 63, 12, 5, 0};
  const Mat ref = reference_forward(m, tokens);  // (T, vocab)
  // Loose: relative RMS of the logit difference. Measured 0.27 (Q4_K) and 0.071 (Q6_K): about
  // 3.4 times the weights' own error (0.083, 0.020), as two random layers amplify it.
  // Q4_1, Q5_0, Q5_1: measured 0.30, 0.150, 0.145 (the same ~3.5 times their weight error).
  const std::pair<GgmlType, double> cases[] = {{GgmlType::Q4_K, 0.4},
                                               {GgmlType::Q6_K, 0.11},
                                               {GgmlType::Q4_1, 0.45},
                                               {GgmlType::Q5_0, 0.22},
                                               {GgmlType::Q5_1, 0.22}};
  for (const auto& [type, bound] : cases) {
    const std::string tname = ggml_type_name(static_cast<uint32_t>(type));
    CAPTURE(tname);
    const std::string path = quant_temp_path(tname + ".gguf");
    REQUIRE(save_gguf_model_as(path, m, {}, type).ok());
    Result<ModelFileInfo> info = inspect_model_file(path);
    REQUIRE_MESSAGE(info.ok(), info.error().message);
    // token_embd, output, 7 matrices a layer; output_norm and 2 norms a layer.
    CHECK(info->tensor_types == "16 " + tname + ", 5 F32");
    CHECK(info->memory_bytes == m.parameter_count() * sizeof(float));
    CHECK(info->file_bytes < m.parameter_count() * 2);  // well under fp32 (and F16) size
    Result<LoadedModel> lm = load_model_file(path);
    REQUIRE_MESSAGE(lm.ok(), lm.error().message);
    const Mat got = reference_forward(lm->model, tokens);
    REQUIRE(got.rows() == ref.rows());
    REQUIRE(got.cols() == ref.cols());
    const double rms = relative_rms(ref.data(), got.data(), static_cast<size_t>(ref.size()));
    MESSAGE(tname << " model: relative RMS error of the logits " << rms);
    CHECK(rms < bound);
    std::filesystem::remove(path);
  }
}

TEST_CASE("quant: matrices whose rows do not fill whole blocks fall back") {
  ModelConfig c = quant_llama_config();
  c.d_model = 64;  // rows of 64: Q4_K falls back to Q8_0; Q4_0 (blocks of 32) is kept
  c.d_ff = 96;
  const Model m = quant_random_model(c, 9);
  for (GgmlType type : {GgmlType::Q4_K, GgmlType::Q4_0}) {
    GgufWriter w;
    REQUIRE(model_to_gguf(m, {}, {}, type, w).ok());
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(w.to_bytes().value(), "fb.gguf"));
    REQUIRE(f.ok());
    CHECK(f->find_tensor("blk.0.attn_q.weight")->type ==
          static_cast<uint32_t>(type == GgmlType::Q4_K ? GgmlType::Q8_0 : GgmlType::Q4_0));
    CHECK(f->find_tensor("blk.0.ffn_down.weight")->type ==
          static_cast<uint32_t>(GgmlType::Q4_0 == type ? GgmlType::Q4_0 : GgmlType::Q8_0));
    CHECK(model_from_gguf(f.value()).ok());
  }
  GgufWriter w;
  CHECK_FALSE(model_to_gguf(m, {}, {}, GgmlType::Q2_K, w).ok());
}

TEST_CASE("quant: malformed quantized tensors give one-line errors") {
  // Rows that do not fill whole super-blocks, even when the total would (128 x 2 = 256).
  for (GgmlType t : {GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K}) {
    CAPTURE(ggml_type_name(static_cast<uint32_t>(t)));
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(
        quant_one_tensor_file({128, 2}, t, ggml_bytes(t, 256)), "odd.gguf"));
    REQUIRE_FALSE(f.ok());
    check_one_line_error(f.error().message, "odd.gguf: ", "tensor w: row length 128");
    CHECK(f.error().message.find("block size 256") != std::string::npos);
  }
  for (GgmlType t : {GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q5_0, GgmlType::Q5_1}) {
    CAPTURE(ggml_type_name(static_cast<uint32_t>(t)));
    Result<GgufFile> f =
        GgufFile::read(ByteSource::from_memory(quant_one_tensor_file({48}, t, 64), "odd.gguf"));
    REQUIRE_FALSE(f.ok());
    check_one_line_error(f.error().message, "odd.gguf: ", "block size 32");
  }
  // Truncated block data: one byte short of the last (super-)block.
  for (GgmlType t : {GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q5_0, GgmlType::Q5_1, GgmlType::Q4_K,
                     GgmlType::Q5_K, GgmlType::Q6_K}) {
    CAPTURE(ggml_type_name(static_cast<uint32_t>(t)));
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(
        quant_one_tensor_file({256, 3}, t, ggml_bytes(t, 768) - 1), "short.gguf"));
    REQUIRE_FALSE(f.ok());
    check_one_line_error(f.error().message, "short.gguf: ", "tensor w");
    CHECK(f.error().message.find("truncated") != std::string::npos);
  }
  // The decoder itself refuses a count that is not whole blocks.
  std::vector<uint8_t> bytes(kQ4_KBytes);
  std::vector<float> out(300);
  Status st = ggml_to_f32(GgmlType::Q4_K, bytes.data(), 300, out.data());
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("multiple of 256") != std::string::npos);
  Status st5 = ggml_to_f32(GgmlType::Q5_1, bytes.data(), 40, out.data());
  REQUIRE_FALSE(st5.ok());
  CHECK(st5.error().message == "Q5_1: value count 40 is not a multiple of 32");
  // The writer refuses to encode rows that do not fill whole blocks.
  GgufWriter w;
  const std::vector<float> x(256 * 2, 1.0f);
  Status add = w.add_tensor("w", {128, 4}, GgmlType::Q6_K, x);
  REQUIRE_FALSE(add.ok());
  CHECK(add.error().message.find("multiple of 256") != std::string::npos);
  // Non-finite values cannot be quantised.
  std::vector<float> bad(256, 1.0f);
  bad[7] = std::nanf("");
  Result<std::vector<uint8_t>> enc = ggml_from_f32(GgmlType::Q5_K, bad);
  REQUIRE_FALSE(enc.ok());
  CHECK(enc.error().message == "Q5_K: value 7 is not finite");
  bad[7] = INFINITY;
  Result<std::vector<uint8_t>> enc5 = ggml_from_f32(GgmlType::Q5_0, bad);
  REQUIRE_FALSE(enc5.ok());
  CHECK(enc5.error().message == "Q5_0: value 7 is not finite");
  // A model file with a truncated Q4_K tensor: the loader names the file.
  const Model m = quant_random_model(quant_llama_config(), 2);
  GgufWriter mw;
  REQUIRE(model_to_gguf(m, {}, {}, GgmlType::Q4_K, mw).ok());
  std::vector<uint8_t> file = mw.to_bytes().value();
  file.resize(file.size() - kQ4_KBytes);
  const std::string path = quant_temp_path("truncated.gguf");
  {
    std::FILE* fp = std::fopen(path.c_str(), "wb");
    REQUIRE(fp);
    REQUIRE(std::fwrite(file.data(), 1, file.size(), fp) == file.size());
    std::fclose(fp);
  }
  Result<LoadedModel> lm = load_model_file(path);
  REQUIRE_FALSE(lm.ok());
  check_one_line_error(lm.error().message, path + ": ", "truncated");
  std::filesystem::remove(path);
}

TEST_CASE("quant: loading is refused when the fp32 weights exceed the available memory") {
  const Model m = quant_random_model(quant_llama_config(), 4);
  const std::string path = quant_temp_path("budget.gguf");
  REQUIRE(save_gguf_model_as(path, m, {}, GgmlType::Q4_K).ok());
  const uint64_t need = m.parameter_count() * sizeof(float);

  set_available_memory_for_testing(need - 1);
  Result<LoadedModel> refused = load_model_file(path);
  set_available_memory_for_testing(std::nullopt);
  REQUIRE_FALSE(refused.ok());
  const std::string& msg = refused.error().message;
  check_one_line_error(msg, path + ": ", "needs " + format_bytes(need));
  CHECK_MESSAGE(
      msg.find("only " + format_bytes(need - 1) + " of memory is available") != std::string::npos,
      msg);

  set_available_memory_for_testing(need);
  CHECK(load_model_file(path).ok());
  set_available_memory_for_testing(std::nullopt);

  // The check on its own, and the real reading of /proc/meminfo (present on Linux).
  CHECK(check_memory_fits("x", 10, std::nullopt).ok());
  CHECK(check_memory_fits("x", 10, 10).ok());
  CHECK_FALSE(check_memory_fits("x", uint64_t{3} << 30, uint64_t{1} << 30).ok());
  CHECK(check_memory_fits("x", uint64_t{3} << 30, uint64_t{1} << 30).error().message ==
        "x: needs 3.00 GiB for its weights dequantized to fp32, but only 1.00 GiB of memory is "
        "available");
  if (std::filesystem::exists("/proc/meminfo")) CHECK(available_memory_bytes().has_value());
  std::filesystem::remove(path);
}
