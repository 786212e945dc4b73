// Quantized tensor types through files: quantise -> GGUF -> read -> dequantise round trips within
// the stated bounds, special blocks, a small llama model saved in each type running close to fp32,
// fallbacks for rows that do not fill whole blocks, one-line errors for malformed data, and the
// refusal of a model whose fp32 weights exceed the (injected) available memory.
#include <doctest/doctest.h>

#include "quant_test_util.h"

using namespace ts;
using namespace ts::quant_test;

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
    // Q4_K and Q6_K matrices stay in their blocks (about the file's size); the others are
    // decoded to fp32.
    const bool kept = type == GgmlType::Q4_K || type == GgmlType::Q6_K;
    if (kept) {
      CHECK(info->memory_bytes < info->file_bytes);
    } else {
      CHECK(info->memory_bytes == m.parameter_count() * sizeof(float));
    }
    CHECK(info->file_bytes < m.parameter_count() * 2);  // well under fp32 (and F16) size
    Result<LoadedModel> lm = load_model_file(path);
    REQUIRE_MESSAGE(lm.ok(), lm.error().message);
    CHECK(lm->model.is_quantized() == kept);
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

TEST_CASE("quant: loading is refused when the weights exceed the available memory") {
  const Model m = quant_random_model(quant_llama_config(), 4);
  const std::string path = quant_temp_path("budget.gguf");
  REQUIRE(save_gguf_model_as(path, m, {}, GgmlType::Q4_K).ok());
  // The check is on the load's peak: the weights as kept (Q4_K blocks, fp32 norms) plus one
  // tensor being decoded plus one lane's KV cache (issue #14), more than the weights alone.
  Result<ModelFileInfo> info = inspect_model_file(path);
  REQUIRE(info.ok());
  const uint64_t need = info->peak_bytes;
  CHECK(need > info->memory_bytes);
  CHECK(info->memory_bytes < m.parameter_count() * sizeof(float) / 4);

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
        "x: needs 3.00 GiB for its weights, but only 1.00 GiB of memory is available");
  if (std::filesystem::exists("/proc/meminfo")) CHECK(available_memory_bytes().has_value());
  std::filesystem::remove(path);
}
