// Tests of base/: counter-based RNG, half floats, UTF-8 helpers, Result.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "base/error.h"
#include "base/f16.h"
#include "base/rng.h"
#include "base/utf8.h"

using namespace ts;

TEST_CASE("uniform01 is a pure function of (seed, counter) and in [0,1)") {
  CHECK(uniform01(42, 7) == uniform01(42, 7));
  CHECK(uniform01(42, 7) != uniform01(42, 8));
  CHECK(uniform01(42, 7) != uniform01(43, 7));
  CHECK(uniform01(42, 7, 0) != uniform01(42, 7, 1));
  double sum = 0;
  for (uint64_t k = 0; k < 10000; ++k) {
    const double u = uniform01(0xFFFFFFFFFFFFFFFFull, k);
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
  }
  CHECK(sum / 10000 == doctest::Approx(0.5).epsilon(0.02));
}

TEST_CASE("splitmix64 matches the published reference sequence") {
  // First outputs of splitmix64 seeded with 0 (state += golden gamma, then mix).
  uint64_t s = 0;
  CHECK(splitmix64(s) == 0xE220A8397B1DCDAFull);
}

TEST_CASE("f16 round trips and rounds to nearest even") {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.333251953125f}) {
    CHECK(f16_to_f32(f32_to_f16(f)) == f);
  }
  CHECK(f32_to_f16(1.0f) == 0x3C00);
  CHECK(f32_to_f16(-2.0f) == 0xC000);
  CHECK(std::isinf(f16_to_f32(f32_to_f16(1e6f))));
  CHECK(std::isnan(f16_to_f32(f32_to_f16(NAN))));
  CHECK(f32_to_f16(1.0f + 1.0f / 2048) == 0x3C00);  // tie -> even
  CHECK(f32_to_f16(1.0f + 3.0f / 2048) == 0x3C02);  // tie -> even (up)
  CHECK(bf16_to_f32(0x3F80) == 1.0f);
}

TEST_CASE("display_label: one safe line from a file's text") {
  CHECK(display_label("tales-4m") == "tales-4m");
  CHECK(display_label("evil\x1B[2Jname\nnext") == "evil\\x1B[2Jname\\x0Anext");
  CHECK(display_label("a\x7F" "b") == "a\\x7Fb");
  CHECK(display_label("c1 \xC2\x9B x") == "c1 \\u009B x");  // a C1 control (CSI)
  CHECK(display_label("caf\xC3\xA9 \xFF") == "caf\xC3\xA9 <0xFF>");
  CHECK(display_label("abcdef", 3) == "abc\xE2\x80\xA6");
  CHECK(display_label("\xE2\x98\x83\xE2\x98\x83", 1) == "\xE2\x98\x83\xE2\x80\xA6");
  CHECK(display_label("") == "");
}

TEST_CASE("utf8 validation and sanitising") {
  CHECK(utf8_valid("h\xC3\xA9llo \xF0\x9F\x98\x80"));
  CHECK_FALSE(utf8_valid("\xC3"));          // truncated
  CHECK_FALSE(utf8_valid("\xC0\xAF"));      // overlong
  CHECK_FALSE(utf8_valid("\xED\xA0\x80"));  // surrogate
  CHECK(utf8_sanitize("a\xFF" "b") == "a<0xFF>b");
  CHECK(utf8_sanitize("a\xFF", false) == "a\xEF\xBF\xBD");
  const auto cs = utf8_chars("a\xC3\xA9\xFF");
  REQUIRE(cs.size() == 3);
  CHECK(cs[1] == "\xC3\xA9");
  std::string out;
  utf8_append(out, 0x1F600);
  CHECK(out == "\xF0\x9F\x98\x80");
  CHECK(utf8_decode_at(out, 0) == 0x1F600);
}

TEST_CASE("Result carries a value or an error") {
  Result<int> a = 3;
  Result<int> b = make_error("bad");
  CHECK(a.ok());
  CHECK(a.value() == 3);
  CHECK_FALSE(b.ok());
  CHECK(b.error().message == "bad");
}
