// Tests of the GGUF container: a byte-exact hand-built file, metadata of every value type
// round-tripping through the writer and reader, tensor types F32/F16/BF16/Q8_0 (Q8_0 within its
// documented error), alignment and offsets, and the two real vocabulary-only files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "base/f16.h"
#include "base/rng.h"
#include "formats/gguf.h"
#include "golden.h"

using namespace ts;

namespace {

struct Bytes {
  std::vector<uint8_t> b;
  template <class T>
  Bytes& pod(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof v);
    return *this;
  }
  Bytes& str(const std::string& s) {
    pod<uint64_t>(s.size());
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  Bytes& zeros(size_t n) {
    b.insert(b.end(), n, 0);
    return *this;
  }
};

GgufFile reread(const GgufWriter& w) {
  Result<std::vector<uint8_t>> bytes = w.to_bytes();
  REQUIRE_MESSAGE(bytes.ok(), bytes.error().message);
  Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(std::move(bytes.value()), "t.gguf"));
  REQUIRE_MESSAGE(f.ok(), f.error().message);
  return std::move(f.value());
}

std::vector<float> random_values(size_t n, uint64_t seed, double scale = 1.0) {
  SplitMix rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.normal() * scale);
  return v;
}

}  // namespace

TEST_CASE("gguf: writer output matches a hand-built file byte for byte") {
  GgufWriter w;
  w.set("general.architecture", GgufValue::str("llama"));
  w.set("x.count", GgufValue::u32(7));
  const std::vector<float> t = {1.5f, -2.0f};
  REQUIRE(w.add_tensor("a", {2}, GgmlType::F32, t).ok());
  Result<std::vector<uint8_t>> got = w.to_bytes();
  REQUIRE(got.ok());

  Bytes e;
  e.pod<uint32_t>(0x46554747).pod<uint32_t>(3).pod<uint64_t>(1).pod<uint64_t>(2);
  e.str("general.architecture").pod<uint32_t>(8).str("llama");
  e.str("x.count").pod<uint32_t>(4).pod<uint32_t>(7);
  e.str("a").pod<uint32_t>(1).pod<uint64_t>(2).pod<uint32_t>(0).pod<uint64_t>(0);
  const size_t header_end = e.b.size();
  e.zeros((32 - header_end % 32) % 32);
  e.pod(1.5f).pod(-2.0f).zeros(24);  // data padded to the alignment
  CHECK(got.value() == e.b);

  GgufFile f = reread(w);
  CHECK(f.data_offset() % 32 == 0);
  CHECK(f.data_offset() >= header_end);
  REQUIRE(f.tensors().size() == 1);
  CHECK(f.read_tensor_f32(f.tensors()[0]).value() == t);
}

TEST_CASE("gguf: metadata of every type round-trips") {
  std::vector<GgufKv> kv = {
      {"t.u8", GgufValue::u8(250)},
      {"t.i8", GgufValue::i8(-120)},
      {"t.u16", GgufValue::u16(65000)},
      {"t.i16", GgufValue::i16(-32000)},
      {"t.u32", GgufValue::u32(4000000000u)},
      {"t.i32", GgufValue::i32(-2000000000)},
      {"t.f32", GgufValue::f32(0.1f)},
      {"t.bool", GgufValue::boolean(true)},
      {"t.bool0", GgufValue::boolean(false)},
      {"t.str", GgufValue::str("h\xC3\xA9llo\n\"x\"")},
      {"t.empty", GgufValue::str("")},
      {"t.u64", GgufValue::u64(0xFFFFFFFFFFFFFFFFull)},
      {"t.i64", GgufValue::i64(INT64_MIN)},
      {"t.f64", GgufValue::f64(1e-300)},
      {"t.arr_str", GgufValue::strings({"a", "", "\xE2\x96\x81the", std::string("\0x", 2)})},
      {"t.arr_u8", GgufValue::unsigned_array(GgufValueType::UInt8, {0, 1, 255})},
      {"t.arr_u16", GgufValue::unsigned_array(GgufValueType::UInt16, {65535})},
      {"t.arr_u32", GgufValue::unsigned_array(GgufValueType::UInt32, {1, 2})},
      {"t.arr_u64", GgufValue::unsigned_array(GgufValueType::UInt64, {1ull << 63})},
      {"t.arr_i8", GgufValue::signed_array(GgufValueType::Int8, {-128, 127})},
      {"t.arr_i16", GgufValue::signed_array(GgufValueType::Int16, {-5})},
      {"t.arr_i32", GgufValue::signed_array(GgufValueType::Int32, {1, -1, INT32_MIN})},
      {"t.arr_i64", GgufValue::signed_array(GgufValueType::Int64, {INT64_MAX})},
      {"t.arr_f32", GgufValue::float_array(GgufValueType::Float32, {0.5, -0.25, 1e30})},
      {"t.arr_f64", GgufValue::float_array(GgufValueType::Float64, {1.0 / 3.0})},
      {"t.arr_bool", GgufValue::bool_array({true, false, true})},
      {"t.arr_empty", GgufValue::strings({})},
      {"t.arr_arr",
       GgufValue::array_of_arrays({GgufValue::strings({"x", "y"}),
                                   GgufValue::signed_array(GgufValueType::Int32, {3, 4, 5})})},
  };
  GgufWriter w;
  for (const GgufKv& e : kv) w.set(e.first, e.second);
  GgufFile f = reread(w);
  REQUIRE(f.metadata().size() == kv.size());
  for (size_t k = 0; k < kv.size(); ++k) {
    CAPTURE(kv[k].first);
    CHECK(f.metadata()[k].first == kv[k].first);  // order kept
    CHECK(f.metadata()[k].second == kv[k].second);
  }
  CHECK(f.find("t.u32")->as_int() == 4000000000ll);
  CHECK(f.find("t.f32")->as_float() == doctest::Approx(0.1));
  CHECK(f.find("t.bool")->as_bool() == true);
  CHECK(*f.find("t.str")->as_string() == "h\xC3\xA9llo\n\"x\"");
  CHECK_FALSE(f.find("t.u64")->as_int().has_value());  // does not fit int64
  CHECK_FALSE(f.find("t.str")->as_int().has_value());
  CHECK(f.find("missing") == nullptr);
  CHECK(f.find("t.arr_str")->describe().rfind("[string x 4", 0) == 0);
  CHECK(f.find("t.bool")->describe() == "true");
  // Values print on one line as valid UTF-8 whatever they hold.
  CHECK(GgufValue::str("a\r\nb\x01\xFF\"").describe() == "\"a\\r\\nb\\x01<0xFF>\\\"\"");
  CHECK(GgufValue::str(std::string(100, 'x')).describe(10) == "\"xxxxxxxxxx...\"");
}

TEST_CASE("gguf: writer rejects values that do not fit their type") {
  auto fails = [](GgufValue v) {
    GgufWriter w;
    w.set("k", std::move(v));
    return !w.to_bytes().ok();
  };
  CHECK(fails(GgufValue::unsigned_array(GgufValueType::UInt8, {256})));
  CHECK(fails(GgufValue::signed_array(GgufValueType::Int16, {40000})));
  GgufValue u8 = GgufValue::u8(1);
  u8.u = 300;
  CHECK(fails(u8));
  GgufValue wrong_field = GgufValue::strings({});
  wrong_field.arr_i = {1};
  CHECK(fails(wrong_field));
  CHECK(fails(GgufValue::array_of_arrays({GgufValue::u8(1)})));
  GgufWriter w;
  w.set("general.alignment", GgufValue::u32(64));
  CHECK_FALSE(w.to_bytes().ok());  // must go through set_alignment
  GgufWriter bad_key;
  bad_key.set("a\tb", GgufValue::u8(1));
  CHECK_FALSE(bad_key.to_bytes().ok());
  CHECK_FALSE(w.set_alignment(12).ok());
  CHECK_FALSE(w.set_alignment(4).ok());
  const std::vector<float> three(3, 1.0f);
  CHECK_FALSE(w.add_tensor("t", {4}, GgmlType::F32, three).ok());
  CHECK_FALSE(w.add_tensor("t", {3}, GgmlType::Q8_0, three).ok());
  CHECK_FALSE(w.add_tensor("", {3}, GgmlType::F32, three).ok());
  CHECK_FALSE(w.add_tensor(std::string(65, 'x'), {3}, GgmlType::F32, three).ok());
  CHECK_FALSE(w.add_tensor("bad\n", {3}, GgmlType::F32, three).ok());
  CHECK(w.add_tensor("t", {3}, GgmlType::F32, three).ok());
  CHECK_FALSE(w.add_tensor("t", {3}, GgmlType::F32, three).ok());  // duplicate
  const std::vector<float> q(64, 1.0f);
  CHECK_FALSE(w.add_tensor("q", {16, 4}, GgmlType::Q8_0, q).ok());  // rows of 16
}

TEST_CASE("gguf: tensors of each type round-trip") {
  const std::vector<float> a = random_values(64 * 3, 1);  // ne = {64, 3}
  GgufWriter w;
  REQUIRE(w.set_alignment(64).ok());
  REQUIRE(w.add_tensor("f32", {64, 3}, GgmlType::F32, a).ok());
  REQUIRE(w.add_tensor("f16", {64, 3}, GgmlType::F16, a).ok());
  REQUIRE(w.add_tensor("q8", {64, 3}, GgmlType::Q8_0, a).ok());
  std::vector<uint8_t> bf(a.size() * 2);
  for (size_t i = 0; i < a.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, &a[i], 4);
    const auto h = static_cast<uint16_t>(bits >> 16);  // truncation: exact for the check below
    std::memcpy(bf.data() + 2 * i, &h, 2);
  }
  REQUIRE(w.add_raw_tensor("bf16", {64, 3}, GgmlType::BF16, bf).ok());
  const std::vector<float> one = {42.0f};
  REQUIRE(w.add_tensor("scalar", {1, 1, 1, 1}, GgmlType::F32, one).ok());
  GgufFile f = reread(w);
  CHECK(f.alignment() == 64);
  CHECK(f.find("general.alignment")->u == 64);
  CHECK(f.data_offset() % 64 == 0);
  REQUIRE(f.tensors().size() == 5);
  for (const GgufTensorInfo& t : f.tensors()) {
    CAPTURE(t.name);
    CHECK(t.offset % 64 == 0);
  }
  const GgufTensorInfo* t32 = f.find_tensor("f32");
  REQUIRE(t32);
  CHECK(t32->ne == std::vector<uint64_t>{64, 3});
  CHECK(t32->shape_string() == "[64, 3]");
  CHECK(t32->n_bytes == 64 * 3 * 4);
  CHECK(f.read_tensor_f32(*t32).value() == a);

  const std::vector<float> h = f.read_tensor_f32(*f.find_tensor("f16")).value();
  for (size_t i = 0; i < a.size(); ++i) {
    REQUIRE(h[i] == f16_to_f32(f32_to_f16(a[i])));
    REQUIRE(std::fabs(h[i] - a[i]) <= std::fabs(a[i]) * 0x1p-11f + 1e-7f);
  }
  const GgufTensorInfo* tq = f.find_tensor("q8");
  CHECK(tq->n_bytes == 6 * 34);
  const std::vector<float> q = f.read_tensor_f32(*tq).value();
  for (size_t b = 0; b < a.size() / 32; ++b) {
    float amax = 0;
    for (size_t j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(a[b * 32 + j]));
    for (size_t j = 0; j < 32; ++j) {
      REQUIRE(std::fabs(q[b * 32 + j] - a[b * 32 + j]) <= q8_0_max_error(amax));
    }
  }
  const std::vector<float> b16 = f.read_tensor_f32(*f.find_tensor("bf16")).value();
  for (size_t i = 0; i < a.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, &a[i], 4);
    bits &= 0xFFFF0000u;
    float want;
    std::memcpy(&want, &bits, 4);
    REQUIRE(b16[i] == want);
  }
  CHECK(f.read_tensor_f32(*f.find_tensor("scalar")).value() == one);
}

TEST_CASE("gguf: Q8_0 by hand") {
  std::vector<float> x(32, 0.0f);
  x[0] = 127.0f;
  x[1] = -63.5f;  // rounds away from zero to -64 (d = 1)
  x[2] = 0.49f;
  const std::vector<uint8_t> q = quantize_q8_0(x);
  REQUIRE(q.size() == 34);
  uint16_t d;
  std::memcpy(&d, q.data(), 2);
  CHECK(f16_to_f32(d) == 1.0f);
  CHECK(static_cast<int8_t>(q[2]) == 127);
  CHECK(static_cast<int8_t>(q[3]) == -64);
  CHECK(static_cast<int8_t>(q[4]) == 0);
  std::vector<float> back(32);
  dequantize_q8_0(q.data(), 32, back.data());
  CHECK(back[0] == 127.0f);
  CHECK(back[1] == -64.0f);
  const std::vector<float> zeros(32, 0.0f);
  std::vector<float> zback(32, 1.0f);
  dequantize_q8_0(quantize_q8_0(zeros).data(), 32, zback.data());
  CHECK(zback == zeros);
}

TEST_CASE("gguf: unsupported tensor types are described and refused on load") {
  GgufWriter w;
  REQUIRE(w.add_raw_tensor("k", {256}, GgmlType::Q2_K, std::vector<uint8_t>(84)).ok());
  GgufFile f = reread(w);
  CHECK(f.tensors()[0].n_bytes == 84);
  CHECK(ggml_type_name(f.tensors()[0].type) == "Q2_K");
  Result<std::vector<float>> r = f.read_tensor_f32(f.tensors()[0]);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("Q2_K") != std::string::npos);
}

TEST_CASE("gguf: file writing goes through a temporary and reads back") {
  const auto path = std::filesystem::temp_directory_path() / "ts_test_container.gguf";
  GgufWriter w;
  w.set("general.name", GgufValue::str("disk"));
  REQUIRE(w.write_file(path.string()).ok());
  CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  Result<GgufFile> f = GgufFile::open(path.string());
  REQUIRE_MESSAGE(f.ok(), f.error().message);
  CHECK(*f->find("general.name")->as_string() == "disk");
  std::filesystem::remove(path);
  CHECK_FALSE(GgufFile::open(path.string()).ok());
  CHECK_FALSE(w.write_file("/nonexistent-dir/x.gguf").ok());
}

TEST_CASE("gguf: the real vocabulary-only files parse" * doctest::test_suite("golden")) {
  if (!test::have_golden("gguf-vocab/ggml-vocab-gpt-2.gguf")) return;
  for (const char* name : {"ggml-vocab-gpt-2.gguf", "ggml-vocab-llama-spm.gguf"}) {
    CAPTURE(name);
    Result<GgufFile> f = GgufFile::open((test::golden_dir() / "gguf-vocab" / name).string());
    REQUIRE_MESSAGE(f.ok(), f.error().message);
    CHECK(f->version() == 3);
    CHECK(f->tensors().empty());
    const GgufValue* tokens = f->find("tokenizer.ggml.tokens");
    REQUIRE(tokens);
    CHECK(tokens->elem == GgufValueType::String);
    CHECK(tokens->array_size() ==
          (std::string(name).find("gpt") != std::string::npos ? 50257u : 32000u));
  }
}
