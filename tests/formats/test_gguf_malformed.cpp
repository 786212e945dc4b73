// Hostile and broken GGUF input: every truncation of a valid file, bad magic and versions,
// absurd counts and lengths, impossible tensor shapes, misaligned and overlapping offsets. Each
// must return a one-line error naming the file, never crash or allocate from an unchecked size
// (run under the sanitizers too); random byte flips must never crash.
#include <doctest/doctest.h>

#include <cstring>

#include "base/rng.h"
#include "formats/gguf.h"

using namespace ts;

namespace {

// A little-endian GGUF builder for hand-made (and deliberately wrong) files.
struct Gguf {
  std::vector<uint8_t> b;
  template <class T>
  Gguf& pod(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof v);
    return *this;
  }
  Gguf& str(const std::string& s) {
    pod<uint64_t>(s.size());
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  Gguf& header(uint64_t n_tensors, uint64_t n_kv, uint32_t version = 3) {
    b.insert(b.end(), {'G', 'G', 'U', 'F'});
    return pod(version).pod(n_tensors).pod(n_kv);
  }
  Gguf& tensor(const std::string& name, std::vector<uint64_t> ne, uint32_t type, uint64_t off) {
    str(name).pod<uint32_t>(static_cast<uint32_t>(ne.size()));
    for (uint64_t d : ne) pod(d);
    return pod(type).pod(off);
  }
  Gguf& pad_and_data(size_t n_data) {
    while (b.size() % 32) b.push_back(0);
    b.insert(b.end(), n_data, 0x11);
    return *this;
  }
};

Result<GgufFile> parse(std::vector<uint8_t> bytes) {
  return GgufFile::read(ByteSource::from_memory(std::move(bytes), "bad.gguf"));
}

void check_error(std::vector<uint8_t> bytes, const std::string& expect) {
  Result<GgufFile> f = parse(std::move(bytes));
  REQUIRE_FALSE(f.ok());
  const std::string& m = f.error().message;
  CHECK_MESSAGE(m.rfind("bad.gguf: ", 0) == 0, m);
  CHECK(m.find('\n') == std::string::npos);
  CHECK_MESSAGE(m.find(expect) != std::string::npos, "expected '" << expect << "' in: " << m);
}

// A valid file using every part of the format: scalar, string, string array, two tensors.
std::vector<uint8_t> valid_file(uint64_t* data_end) {
  GgufWriter w;
  w.set("general.architecture", GgufValue::str("llama"));
  w.set("a.count", GgufValue::u32(3));
  w.set("a.list", GgufValue::strings({"x", "yy", "zzz"}));
  w.set("a.nums", GgufValue::float_array(GgufValueType::Float32, {1, 2}));
  const std::vector<float> t1(8, 1.0f), t2(64, 2.0f);
  REQUIRE(w.add_tensor("t1", {4, 2}, GgmlType::F32, t1).ok());
  REQUIRE(w.add_tensor("t2", {32, 2}, GgmlType::Q8_0, t2).ok());
  std::vector<uint8_t> bytes = w.to_bytes().value();
  Result<GgufFile> f = parse(bytes);
  REQUIRE(f.ok());
  const GgufTensorInfo& last = f->tensors().back();
  *data_end = f->data_offset() + last.offset + last.n_bytes;
  return bytes;
}

}  // namespace

TEST_CASE("gguf malformed: every truncation of a valid file is an error") {
  uint64_t data_end = 0;
  const std::vector<uint8_t> good = valid_file(&data_end);
  for (size_t cut = 0; cut < data_end; ++cut) {
    CAPTURE(cut);
    Result<GgufFile> f = parse(std::vector<uint8_t>(good.begin(), good.begin() + cut));
    REQUIRE_FALSE(f.ok());
    CHECK(f.error().message.rfind("bad.gguf: ", 0) == 0);
  }
  // Only the trailing padding after the last tensor may be missing.
  CHECK(parse(std::vector<uint8_t>(good.begin(), good.begin() + data_end)).ok());
}

TEST_CASE("gguf malformed: magic and version") {
  Gguf ok;
  ok.header(0, 0);
  REQUIRE(parse(ok.b).ok());
  auto bad_magic = ok.b;
  bad_magic[0] = 'g';
  check_error(bad_magic, "bad magic");
  Gguf v2, v4, v1, be;
  check_error(v2.header(0, 0, 2).b, "version 2");
  check_error(v4.header(0, 0, 4).b, "version 4");
  check_error(v1.header(0, 0, 1).b, "version 1");
  check_error(be.header(0, 0, 0x03000000).b, "big-endian");
  check_error({'G', 'G', 'U'}, "truncated");
  check_error({}, "truncated");
}

TEST_CASE("gguf malformed: absurd counts and lengths") {
  Gguf many_tensors, many_kv, long_key, long_value, huge_array, huge_str_array, max_len;
  check_error(many_tensors.header(uint64_t{1} << 40, 0).b, "tensor count");
  check_error(many_kv.header(0, ~uint64_t{0}).b, "metadata count");
  long_key.header(0, 1).pod<uint64_t>(1000).pod<uint32_t>(4).pod<uint64_t>(0).pod<uint64_t>(0);
  check_error(long_key.b, "past the end");
  long_value.header(0, 1).str("k").pod<uint32_t>(8).pod<uint64_t>(uint64_t{1} << 62);
  check_error(long_value.b, "past the end");
  max_len.header(0, 1).str("k").pod<uint32_t>(8).pod<uint64_t>(~uint64_t{0});
  check_error(max_len.b, "past the end");
  huge_array.header(0, 1).str("k").pod<uint32_t>(9).pod<uint32_t>(4).pod<uint64_t>(1ull << 40);
  check_error(huge_array.b, "cannot fit");
  huge_str_array.header(0, 1).str("k").pod<uint32_t>(9).pod<uint32_t>(8).pod<uint64_t>(2);
  huge_str_array.str("a").pod<uint64_t>(1ull << 50);
  check_error(huge_str_array.b, "past the end");
}

TEST_CASE("gguf malformed: value types") {
  Gguf bad_type, bad_elem, bad_bool, dup, deep, empty_key;
  check_error(bad_type.header(0, 1).str("k").pod<uint32_t>(13).pod<uint32_t>(0).b,
              "unknown value type 13");
  check_error(bad_elem.header(0, 1).str("k").pod<uint32_t>(9).pod<uint32_t>(99).pod<uint64_t>(0).b,
              "unknown value type 99");
  check_error(bad_bool.header(0, 1).str("k").pod<uint32_t>(7).pod<uint8_t>(2).b, "bool");
  dup.header(0, 2).str("k").pod<uint32_t>(4).pod<uint32_t>(1);
  dup.str("k").pod<uint32_t>(4).pod<uint32_t>(2);
  check_error(dup.b, "duplicate metadata key k");
  deep.header(0, 1).str("k").pod<uint32_t>(9);
  for (int d = 0; d < 10; ++d) deep.pod<uint32_t>(9).pod<uint64_t>(1);
  deep.pod<uint32_t>(4).pod<uint64_t>(0);
  check_error(deep.b, "nested");
  check_error(empty_key.header(0, 1).str("").pod<uint32_t>(4).pod<uint32_t>(0).b, "key");
  Gguf newline_key, bad_utf8_name;
  check_error(newline_key.header(0, 1).str("a\nb").pod<uint32_t>(4).pod<uint32_t>(0).b,
              "not printable");
  bad_utf8_name.header(1, 0).tensor("w\xFF", {4}, 0, 0).pad_and_data(32);
  check_error(bad_utf8_name.b, "not printable");
}

TEST_CASE("gguf malformed: alignment key") {
  auto with_alignment = [](uint32_t type, uint64_t value) {
    Gguf g;
    g.header(0, 1).str("general.alignment").pod<uint32_t>(type);
    if (type == 4)
      g.pod<uint32_t>(static_cast<uint32_t>(value));
    else
      g.pod<uint64_t>(value);
    return g.b;
  };
  check_error(with_alignment(4, 0), "general.alignment");
  check_error(with_alignment(4, 24), "general.alignment");
  check_error(with_alignment(10, 32), "general.alignment");  // uint64, spec says uint32
  CHECK(parse(with_alignment(4, 64)).ok());
}

TEST_CASE("gguf malformed: tensor infos") {
  auto one = [](std::vector<uint64_t> ne, uint32_t type, uint64_t off, size_t data) {
    Gguf g;
    g.header(1, 0).tensor("w", std::move(ne), type, off).pad_and_data(data);
    return g.b;
  };
  CHECK(parse(one({4, 2}, 0, 0, 32)).ok());
  check_error(one({4, 2}, 0, 0, 31), "runs past the end");
  check_error(one({1ull << 30, 1ull << 30}, 0, 0, 32), "runs past the end");  // 2^60 elements
  check_error(one({1ull << 32, 1ull << 32, 1ull << 32}, 0, 0, 32), "impossible shape");
  check_error(one({1ull << 62, 8}, 0, 0, 32), "impossible shape");
  check_error(one({1ull << 62, 1}, 0, 0, 32), "impossibly large");  // bytes overflow 64 bits
  check_error(one({4, 0}, 0, 0, 32), "impossible shape");
  check_error(one({}, 0, 0, 32), "0 dimensions");
  check_error(one({1, 1, 1, 1, 1}, 0, 0, 32), "5 dimensions");
  check_error(one({4}, 99, 0, 32), "unknown type 99");
  check_error(one({16}, 8, 0, 64), "block size");  // Q8_0 rows of 16
  check_error(one({4}, 0, 4, 64), "alignment");    // misaligned offset
  check_error(one({4}, 0, ~uint64_t{0} - 31, 64), "runs past the end");

  Gguf overlap;
  overlap.header(2, 0).tensor("a", {16}, 0, 0).tensor("b", {16}, 0, 32).pad_and_data(128);
  check_error(overlap.b, "overlap");
  Gguf same;
  same.header(2, 0).tensor("a", {4}, 0, 0).tensor("b", {4}, 0, 0).pad_and_data(64);
  check_error(same.b, "overlap");
  Gguf dup;
  dup.header(2, 0).tensor("a", {4}, 0, 0).tensor("a", {4}, 0, 32).pad_and_data(64);
  check_error(dup.b, "duplicate tensor name a");
  Gguf long_name;
  long_name.header(1, 0).tensor(std::string(65, 'n'), {4}, 0, 0).pad_and_data(32);
  check_error(long_name.b, "tensor name");
  Gguf ok_two;
  ok_two.header(2, 0).tensor("a", {8}, 0, 0).tensor("b", {4}, 0, 32).pad_and_data(64);
  CHECK(parse(ok_two.b).ok());
}

TEST_CASE("gguf malformed: random corruption never crashes") {
  uint64_t data_end = 0;
  const std::vector<uint8_t> good = valid_file(&data_end);
  SplitMix rng(7);
  int failures = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> b = good;
    const int flips = 1 + static_cast<int>(rng.below(4));
    for (int k = 0; k < flips; ++k) {
      b[rng.below(data_end)] = static_cast<uint8_t>(rng.below(256));
    }
    Result<GgufFile> f = parse(std::move(b));
    if (!f.ok()) {
      ++failures;
      continue;
    }
    for (const GgufTensorInfo& t : f->tensors()) {
      Result<std::vector<float>> v = f->read_tensor_f32(t);
      if (v.ok()) CHECK(v->size() == t.n_elements);
    }
  }
  CHECK(failures > 0);
}
