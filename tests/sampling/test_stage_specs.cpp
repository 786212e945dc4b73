// The newer stages reach the chain through the spec text (their descriptors' keys), describe()
// writes them back as spec words, and a file's stage object carries their parameters.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "sampling/sampler.h"
#include "sampling/sampler_spec.h"

using namespace ts;

namespace {
// A stage object as a map of its fields (what stage_fields() writes and reads).
struct MapIoSpec {
  bool writing = true;
  std::map<std::string, double> num;
  std::map<std::string, std::string> text;
  template <class T>
  void operator()(const char* key, T& v) {
    if constexpr (std::is_const_v<T>) {
      num[key] = static_cast<double>(v);
    } else {
      v = static_cast<T>(num.at(key));
    }
  }
  void bytes(const char* key, std::string& s) {  // stage_fields passes a local copy either way
    if (writing)
      text[key] = s;
    else
      s = text.at(key);
  }
};
}  // namespace

TEST_CASE("spec keys of the newer stages insert them before the temperature") {
  auto s = parse_sampler_spec(
      "temp=0.7 typical-p=0.9 top-n-sigma=1.5 xtc-p=0.5 xtc-threshold=0.2 dyn-range=0.3 "
      "bias=5:-2");
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  REQUIRE(s->chain.size() == 10);  // the default five plus five, the temperature still last
  CHECK(std::get<Temperature>(s->chain.back()).t == 0.7f);
  CHECK(std::get<TypicalP>(s->chain[4]).p == 0.9f);
  CHECK(std::get<TopNSigma>(s->chain[5]).n == 1.5f);
  CHECK(std::get<Xtc>(s->chain[6]) == Xtc{0.5f, 0.2f});
  CHECK(std::get<DynTemp>(s->chain[7]).range == 0.3f);
  CHECK(std::get<LogitBias>(s->chain[8]).bias[0] == std::pair<int, float>{5, -2.0f});
  CHECK(validate(s.value()).ok());
  // describe() lists them as spec words; parsing that gives the same chain.
  const std::string d = describe(s.value());
  CHECK(d.find("xtc-p=0.5 xtc-threshold=0.2") != std::string::npos);
  auto again = parse_sampler_spec(d);
  REQUIRE(again.ok());
  CHECK(again->chain == s->chain);
  // Bad values: one clear line naming the key.
  auto bad = parse_sampler_spec("xtc-p=lots");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("'xtc-p'") != std::string::npos);
  auto unknown = parse_sampler_spec("sideways=1");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().message.find("typical-p") != std::string::npos);  // the known keys
}

TEST_CASE("stage objects carry every parameter of the newer stages") {
  LogitBias b;
  REQUIRE(parse_logit_bias(b, "7:1.5,9:-inf").ok());
  const std::vector<Stage> stages = {TypicalP{0.8f}, TopNSigma{2}, Xtc{0.3f, 0.12f},
                                     DynTemp{0.9f, 0.4f, 1.5f}, b};
  for (const Stage& st : stages) {
    MapIoSpec io;
    std::visit([&](const auto& v) { stage_fields(io, v); }, st);
    io.writing = false;
    Stage back = default_stage(kind_of(st));
    std::visit([&](auto& v) { stage_fields(io, v); }, back);
    CHECK(back == st);
  }
}
