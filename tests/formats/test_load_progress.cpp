// Loading reports its progress tensor by tensor and can be cancelled (formats/load_progress.h);
// a cancelled load in a session keeps the model that was there.
#include <doctest/doctest.h>

#include <filesystem>

#include "formats/model_file.h"
#include "golden.h"

namespace ts::test {

namespace {
std::string shipped_model() { return (source_dir() / "models" / "tales-4m.gguf").string(); }
}  // namespace

TEST_CASE("a GGUF load reports every tensor once, in order, up to the file's count") {
  const std::string path = shipped_model();
  REQUIRE(std::filesystem::exists(path));
  int calls = 0, last_done = 0, last_total = -1;
  bool increasing = true;
  Result<LoadedModel> m = load_model_file(path, "", [&](int done, int total) {
    ++calls;
    increasing = increasing && done == last_done + 1;
    last_done = done;
    last_total = total;
    return true;
  });
  REQUIRE_MESSAGE(m.ok(), m.error().message);
  CHECK(increasing);
  CHECK(calls == last_total);
  CHECK(last_done == last_total);
  CHECK(last_total == 2 + 9 * m->model.config.n_layers);  // embeddings, out norm, 9 per block
}

TEST_CASE("a load cancelled by its progress callback stops with a clear message") {
  int calls = 0;
  Result<LoadedModel> m = load_model_file(shipped_model(), "", [&](int done, int) {
    ++calls;
    return done < 5;  // cancel at the fifth tensor
  });
  REQUIRE_FALSE(m.ok());
  CHECK(calls == 5);
  CHECK(m.error().message.find("loading cancelled") != std::string::npos);
  CHECK(m.error().message.find("tales-4m.gguf") != std::string::npos);
}

}  // namespace ts::test
