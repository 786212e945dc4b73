// Quantized matrices computed from their blocks (engine/quant/qmat.h, quant_dot.h): block decoding
// equals the reader's dequantization bit for bit; the vector dot products equal the plain-loop
// ones up to float summation order; both stay within the activation quantization's error bound
// of the dequantized fp32 product; the threaded projections (decode and prefill) agree with
// the fp32 path on the dequantized matrix; a model loaded from a quantized GGUF keeps its blocks
// (memory ~ the file) and decodes the same greedy tokens as its dequantized twin.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "base/rng.h"
#include "engine/forward.h"
#include "engine/kv_cache.h"
#include "engine/linear.h"
#include "engine/model.h"
#include "engine/quant/qmat.h"
#include "engine/quant/quant_dot.h"
#include "engine/quant/quant_tile.h"
#include "engine_test_util.h"
#include "formats/ggml_types.h"
#include "formats/gguf_model.h"
#include "formats/model_file.h"
#include "formats/quant/quant.h"

using namespace ts;
using ts::test::llama_config;

namespace {

struct TypeCase {
  QType q;
  GgmlType g;
};
const TypeCase kTypes[] = {{QType::Q8_0, GgmlType::Q8_0},
                           {QType::Q4_0, GgmlType::Q4_0},
                           {QType::Q4_K, GgmlType::Q4_K},
                           {QType::Q5_K, GgmlType::Q5_K},
                           {QType::Q6_K, GgmlType::Q6_K}};

std::vector<float> normals(size_t n, uint64_t seed, double scale) {
  SplitMix rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.normal() * scale);
  return v;
}

// A (rows, cols) matrix of N(0, 0.05^2) values quantized with the writer's quantizer.
QMat random_qmat(const TypeCase& t, int rows, int cols, uint64_t seed) {
  const std::vector<float> w = normals(static_cast<size_t>(rows) * cols, seed, 0.05);
  Result<std::vector<uint8_t>> bytes = ggml_from_f32(t.g, w);
  REQUIRE(bytes.ok());
  QMat m = make_qmat(t.q, rows, cols);
  REQUIRE(bytes->size() == m.blocks.size());
  m.blocks = bytes.value();
  return m;
}

// The activation quantization's worst case for row·x against the fp32 dot product: each x_i is
// off by at most half a step of its block of `block` values (max|x| / 254), so
// |error| <= Σ |w_i| * that.
double act_error_bound(const float* w, const float* x, int n, int block) {
  double bound = 0.0;
  for (int b = 0; b < n / block; ++b) {
    float amax = 0.0f;
    for (int l = 0; l < block; ++l) amax = std::max(amax, std::fabs(x[block * b + l]));
    for (int l = 0; l < block; ++l) bound += std::fabs(w[block * b + l]) * amax / 254.0;
  }
  return bound * 1.001 + 1e-6;
}

}  // namespace

TEST_CASE("qmat: a row decodes to exactly what the reader's dequantizer gives") {
  for (const TypeCase& t : kTypes) {
    const std::string tname = qtype_name(t.q);
    CAPTURE(tname);
    const QMat m = random_qmat(t, 3, 512, 11);
    std::vector<float> all(3 * 512), row(512);
    REQUIRE(ggml_to_f32(t.g, m.blocks.data(), all.size(), all.data()).ok());
    for (int r = 0; r < 3; ++r) {
      qmat_row_f32(m, r, row.data());
      for (int i = 0; i < 512; ++i) REQUIRE(row[i] == all[r * 512 + i]);
    }
    CHECK(m.bytes() == ggml_bytes(t.g, all.size()));
  }
}

TEST_CASE("qmat: activation quantization: scales, levels and half-block sums") {
  std::vector<float> x = normals(64, 3, 2.0);
  x[5] = 0.0f;
  for (int l = 32; l < 64; ++l) x[l] = 0.0f;  // an all-zero block
  QActivation a;
  quantize_activation(x.data(), 64, 1, 64, 32, a);
  REQUIRE(a.d.size() == 2);
  float amax = 0.0f;
  for (int l = 0; l < 32; ++l) amax = std::max(amax, std::fabs(x[l]));
  CHECK(a.d[0] == doctest::Approx(amax / 127.0f));
  CHECK(a.d[1] == 0.0f);
  int s0 = 0, s1 = 0, top = 0;
  for (int l = 0; l < 32; ++l) {
    CHECK(std::fabs(a.q[l] * a.d[0] - x[l]) <= a.d[0] / 2 * 1.0001f);
    (l < 16 ? s0 : s1) += a.q[l];
    top = std::max(top, std::abs(static_cast<int>(a.q[l])));
  }
  CHECK(top == 127);
  CHECK(a.q[5] == 0);
  CHECK(a.sum16[0] == s0);
  CHECK(a.sum16[1] == s1);
  for (int l = 32; l < 64; ++l) CHECK(a.q[l] == 0);
}

TEST_CASE("qmat: activation levels are lrint(x / d) exactly, ties to even, every block size") {
  // Blocks whose max is 127 (d = 1, so x / d is x itself): halves round to the even level.
  for (int block : {32, 256}) {
    CAPTURE(block);
    const int cols = 2 * block;
    std::vector<float> x = normals(static_cast<size_t>(cols), 17 + block, 20.0);
    const float ties[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 126.5f, -126.5f, 3.49999f};
    for (int i = 0; i < 9; ++i) x[i + 1] = ties[i];
    for (int i = 0; i < block; ++i) x[i] = std::clamp(x[i], -126.9f, 126.9f);
    x[0] = 127.0f;
    x[block + 3] = -0.0f;
    QActivation a;
    quantize_activation(x.data(), cols, 1, cols, block, a);
    for (int b = 0; b < 2; ++b) {
      float amax = 0.0f;
      for (int l = 0; l < block; ++l) amax = std::max(amax, std::fabs(x[b * block + l]));
      const float d = amax / 127.0f, id = d > 0.0f ? 1.0f / d : 0.0f;
      REQUIRE(a.d[b] == d);
      for (int l = 0; l < block; ++l) {
        REQUIRE(a.q[b * block + l] == static_cast<int8_t>(std::lrint(x[b * block + l] * id)));
      }
    }
    const int want[] = {0, 2, 2, 0, -2, -2, 126, -126, 3};  // the ties above, then 3.49999
    for (int i = 0; i < 9; ++i) CHECK(a.q[i + 1] == want[i]);
    for (int g = 0; g < cols / 16; ++g) {
      int sum = 0;
      for (int l = 0; l < 16; ++l) sum += a.q[16 * g + l];
      REQUIRE(a.sum16[g] == sum);
    }
  }
}

TEST_CASE("qmat: vector dot products equal the plain loops and stay within the bound of fp32") {
  MESSAGE("vector kernels: " << std::string(qdot_kernels()));
  const int cols = 1024;
  for (const TypeCase& t : kTypes) {
    const std::string tname = qtype_name(t.q);
    CAPTURE(tname);
    const QMat m = random_qmat(t, 8, cols, 21);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<float> x = normals(cols, 100 + trial, trial == 3 ? 30.0 : 1.0);
      if (trial == 2) {
        for (int i = 0; i < cols; i += 3) x[i] = std::fabs(x[i]);  // skewed sums
      }
      QActivation a;
      quantize_activation(x.data(), cols, 1, cols, qtype_act_block(t.q), a);
      const QActRow xr{a.d.data(), a.q.data(), a.sum16.data()};
      std::vector<float> w(cols);
      for (int r = 0; r < m.rows; ++r) {
        const float fast = qdot_row(t.q, m.row(r), cols, xr);
        const float plain = qdot_row_scalar(t.q, m.row(r), cols, xr);
        qmat_row_f32(m, r, w.data());
        double exact = 0.0, mag = 0.0;
        for (int i = 0; i < cols; ++i) {
          exact += static_cast<double>(w[i]) * x[i];
          mag += std::fabs(static_cast<double>(w[i]) * x[i]);
        }
        CHECK(std::fabs(fast - plain) <= 1e-5 * mag + 1e-6);
        CHECK(std::fabs(plain - exact) <=
              act_error_bound(w.data(), x.data(), cols, a.block) + 1e-5 * mag);
      }
    }
  }
}

TEST_CASE("qmat: projections from blocks agree with the fp32 path on the dequantized matrix") {
  const int in = 512, out = 300;
  for (const TypeCase& t : kTypes) {
    const std::string tname = qtype_name(t.q);
    CAPTURE(tname);
    const QMat q = random_qmat(t, out, in, 31);
    const Mat f = qmat_to_mat(q);
    const Vec bias = Eigen::Map<const Vec>(normals(out, 5, 0.1).data(), out);
    for (int T : {1, 7}) {
      CAPTURE(T);
      const std::vector<float> x = normals(static_cast<size_t>(T) * in, 40 + T, 1.0);
      for (int threads : {1, 2}) {
        ThreadPool pool(threads);
        std::vector<float> yq(static_cast<size_t>(T) * out, 0.5f), yf = yq;
        const Mat empty;
        Projection pq{&empty, &bias, x.data(), in, yq.data(), out, true, &q};
        Projection pf{&f, &bias, x.data(), in, yf.data(), out, true};
        project(pool, T, {pq});
        project(pool, T, {pf});
        for (int r = 0; r < T; ++r) {
          for (int o = 0; o < out; ++o) {
            const float got = yq[r * out + o], want = yf[r * out + o];
            // Decode, a short pass (linear.h) and the integer prefill tiles: the activation
            // bound; the fp32 prefill tiles (no AVX-512 VNNI): the same fp32 values, another
            // GEMM order.
            const double tol =
                T <= kShortPassRows || qtile_available()
                    ? act_error_bound(f.row(o).data(), x.data() + r * in, in, qtype_act_block(t.q))
                    : 1e-4 * (1.0 + std::fabs(want));
            REQUIRE(std::fabs(got - want) <= tol + 1e-5);
          }
        }
      }
    }
  }
}

TEST_CASE("qmat: decode results do not depend on the thread count or on rows going together") {
  // 203 rows: chunks of 16 rows, groups of 4 inside them, and 3 rows left over at the end.
  const int rows = 203, cols = 512;
  for (const TypeCase& t : kTypes) {
    const std::string tname = qtype_name(t.q);
    CAPTURE(tname);
    const QMat q = random_qmat(t, rows, cols, 8);
    const std::vector<float> x = normals(3 * cols, 9, 1.0);
    const int block = qtype_act_block(t.q);
    QActivation a3, a1;
    quantize_activation(x.data(), cols, 3, cols, block, a3);
    quantize_activation(x.data() + 2 * cols, cols, 1, cols, block, a1);
    ThreadPool one(1), two(2), three(3);
    std::vector<float> y3(3 * rows), y1(rows), y1b(rows), y1c(rows);
    qmat_dot_rows(two, q, a3, y3.data(), rows);
    qmat_dot_rows(one, q, a1, y1.data(), rows);
    qmat_dot_rows(two, q, a1, y1b.data(), rows);
    qmat_dot_rows(three, q, a1, y1c.data(), rows);
    const QActRow xr{a1.d.data(), a1.q.data(), a1.sum16.data()};
    for (int o = 0; o < rows; ++o) {
      CAPTURE(o);
      REQUIRE(y1[o] == y3[2 * rows + o]);
      REQUIRE(y1[o] == y1b[o]);
      REQUIRE(y1[o] == y1c[o]);
      REQUIRE(y1[o] == qdot_row(t.q, q.row(o), cols, xr));  // one row alone
    }
  }
}

TEST_CASE("qmat: rows dotted together equal each row alone, bit for bit, and the plain loops") {
  // Column counts with whole groups of 4 blocks and with 1-3 blocks left over (blocks of 32),
  // and 1 to 5 super-blocks (K-quants); row counts around the group of 4.
  for (const TypeCase& t : kTypes) {
    const std::string tname = qtype_name(t.q);
    CAPTURE(tname);
    const int n = qtype_block_values(t.q);
    const std::vector<int> col_counts = n == 32 ? std::vector<int>{32, 96, 128, 224, 256, 800, 2048}
                                                : std::vector<int>{256, 512, 768, 1280};
    for (int cols : col_counts) {
      CAPTURE(cols);
      const int rows = 13;
      const QMat m = random_qmat(t, rows, cols, 50 + cols);
      const std::vector<float> x = normals(cols, 60 + cols, 2.0);
      QActivation a;
      quantize_activation(x.data(), cols, 1, cols, qtype_act_block(t.q), a);
      const QActRow xr{a.d.data(), a.q.data(), a.sum16.data()};
      std::vector<float> alone(rows);
      for (int r = 0; r < rows; ++r) {
        alone[r] = qdot_row(t.q, m.row(r), cols, xr);
        double mag = 0.0;
        std::vector<float> w(cols);
        qmat_row_f32(m, r, w.data());
        for (int i = 0; i < cols; ++i) mag += std::fabs(static_cast<double>(w[i]) * x[i]);
        CHECK(std::fabs(alone[r] - qdot_row_scalar(t.q, m.row(r), cols, xr)) <= 1e-5 * mag + 1e-6);
      }
      for (int first = 0; first < 4; ++first) {
        for (int count = 0; first + count <= rows; ++count) {
          std::vector<float> y(static_cast<size_t>(count) + 1, -7.0f);
          qdot_rows(t.q, m.row(first), m.row_bytes, count, cols, xr, y.data());
          for (int i = 0; i < count; ++i) REQUIRE(y[i] == alone[first + i]);
          REQUIRE(y[count] == -7.0f);  // nothing written past the last row
        }
      }
    }
  }
}

TEST_CASE("qmat: a quantized GGUF stays quantized and decodes like its dequantized twin") {
  ModelConfig c = llama_config(4, 2);
  c.d_model = 256;  // every row fills whole 256-value super-blocks
  c.d_ff = 512;
  c.vocab_size = 96;
  c.n_ctx = 32;
  c.tied_embeddings = false;
  // Gentler than random_model's matrices, so two random blocks do not amplify the 8-bit
  // activations' error into near-ties everywhere.
  Model m = allocate_model(c);
  SplitMix rng(77);
  auto fill = [&](Mat& w, double s) {
    for (long i = 0; i < w.size(); ++i) w.data()[i] = static_cast<float>(rng.normal() * s);
  };
  fill(m.weights.tok_embd, 1.0);
  fill(m.weights.output, 0.2);
  for (LayerWeights& l : m.weights.layers) {
    for (Mat* w : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) fill(*w, 0.06);
  }
  for (const TypeCase& t : kTypes) {
    const std::string tname = qtype_name(t.q);
    CAPTURE(tname);
    const std::string path = (std::filesystem::temp_directory_path() /
                              (std::string("ts_qmat_") + qtype_name(t.q) + ".gguf"))
                                 .string();
    REQUIRE(save_gguf_model_as(path, m, {}, t.g).ok());
    Result<LoadedModel> lm = load_model_file(path);
    REQUIRE_MESSAGE(lm.ok(), lm.error().message);
    const Model& qm = lm->model;
    CHECK(qm.is_quantized());
    CHECK(qm.weights.layers[0].wq.size() == 0);
    CHECK(qm.weights.layers[0].q.wq.type == t.q);
    CHECK(qm.parameter_count() == m.parameter_count());
    // Resident weights: the file's blocks plus the fp32 norms, about the file's size.
    const auto file = static_cast<double>(std::filesystem::file_size(path));
    CHECK(static_cast<double>(lm->info.memory_bytes) <= 1.05 * file);
    CHECK(static_cast<double>(qm.weight_bytes()) <= 1.05 * file);
    const WeightBytes wb = weight_bytes_per_value(qm);
    const double per_value = static_cast<double>(qtype_block_bytes(t.q)) / qtype_block_values(t.q);
    CHECK(wb.matrix == doctest::Approx(per_value));
    CHECK(wb.unembed == doctest::Approx(per_value));
    CHECK(logit_tolerance(qm) >= 3e-2);
    CHECK(logit_tolerance(m) == 1e-4);
    Model plain = qm;
    dequantize_weights(plain);
    CHECK_FALSE(plain.is_quantized());
    // 16 greedy steps of the fp32 twin, both fed the same tokens: the logits stay close, and the
    // quantized path picks the same token unless the twin's top two are closer than the
    // difference itself (a near-tie of this random model).
    Forward fq(qm, 2), fp(plain, 2);
    KvCache kq(c, 32), kp(c, 32);
    std::vector<int> tok = {3, 17, 40};
    REQUIRE(fq.run(kq, tok, {}, nullptr).ok());
    REQUIRE(fp.run(kp, tok, {}, nullptr).ok());
    double worst = 0.0;
    int same = 0;
    for (int step = 0; step < 16; ++step) {
      Eigen::Index aq, ap;
      fq.logits().maxCoeff(&aq);
      fp.logits().maxCoeff(&ap);
      const double diff = (fq.logits() - fp.logits()).cwiseAbs().maxCoeff();
      worst = std::max(worst, diff / fp.logits().cwiseAbs().maxCoeff());
      if (aq == ap) {
        ++same;
      } else {
        CHECK(fp.logits()[ap] - fp.logits()[aq] <= 2.0 * diff);
      }
      const int next = static_cast<int>(ap);
      REQUIRE(fq.run(kq, std::span<const int>(&next, 1), {}, nullptr).ok());
      REQUIRE(fp.run(kp, std::span<const int>(&next, 1), {}, nullptr).ok());
    }
    CHECK(same >= 14);
    MESSAGE(tname << ": largest logit difference / largest logit " << worst << ", same token "
                  << same << "/16");
    CHECK(worst < 0.05);
    std::filesystem::remove(path);
  }
}
