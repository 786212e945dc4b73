// The stage table is complete and each stage's name lives in one place: every stage of the
// Stage variant has a name, parameters with distinct file fields and spec keys, off values that
// pass its own check, and its name as a string literal in exactly one file of src/ (its
// descriptor file, src/sampling/stage*.cpp). Lesson texts and tests may mention names freely.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "golden.h"
#include "sampling/stage.h"

using namespace ts;

namespace {

std::vector<std::filesystem::path> files_with(const std::string& needle) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_dir() / "src")) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    std::ifstream in(e.path());
    std::string line;
    bool found = false;
    while (!found && std::getline(in, line)) {  // code only: comments may name stages
      found = line.substr(0, line.find("//")).find(needle) != std::string::npos;
    }
    if (found) out.push_back(e.path());
  }
  return out;
}

}  // namespace

TEST_CASE("each stage's name is a string literal in exactly its descriptor file") {
  for (int k = 0; k < kStageCount; ++k) {
    const std::string name = stage_name(static_cast<StageKind>(k));
    INFO("stage " << name);
    auto files = files_with("\"" + name + "\"");
    // The flat form's keys of the settings files ("temperature", ...) are file keys kept for
    // older files, not the stage's name: sampler_fields.h lists them once.
    std::erase_if(files, [](const auto& f) { return f.filename() == "sampler_fields.h"; });
    REQUIRE(files.size() == 1);
    const std::string file = files[0].filename().string();
    CHECK(files[0].parent_path().filename() == "sampling");
    CHECK(file.rfind("stage", 0) == 0);
    CHECK(files[0].extension() == ".cpp");
  }
}

TEST_CASE("every stage descriptor is complete and consistent") {
  std::set<std::string> names, spec_keys;
  for_each_stage_type([&]<class S>() {
    const std::string name = S::name();
    INFO("stage " << name);
    CHECK(names.insert(name).second);
    const Stage st = S{};
    CHECK(stage_name(kind_of(st)) == name);
    REQUIRE(parse_stage_kind(name).ok());
    CHECK(parse_stage_kind(name).value() == kind_of(st));
    CHECK(default_stage(kind_of(st)) == st);
    CHECK(validate(st).ok());                // the off values are valid
    CHECK(clamp(st) == st);                  // and in range
    CHECK(record_name(st).rfind(name, 0) == 0);  // a record starts with its stage's name
    REQUIRE_FALSE(S::params().empty());
    std::set<std::string> fields;
    for (const Param<S>& p : S::params()) {
      INFO("param " << p.field);
      CHECK(fields.insert(p.field).second);
      CHECK(std::string(p.label).size() > 0);
      CHECK(std::string(p.help).size() > 0);
      if (p.type() == ParamType::Text) {
        CHECK((p.get_text && p.set_text));
      } else {
        CHECK(p.lo <= p.hi);
        static const S fresh{};  // static: GCC 12 misreads a fresh temporary as uninitialized
        CHECK(p.get(fresh) == static_cast<float>(p.off));  // the table's off value is the struct's
      }
      std::string_view spec = p.spec;
      while (!spec.empty()) {
        const size_t bar = spec.find('|');
        CHECK(spec_keys.insert(std::string(spec.substr(0, bar))).second);  // no key twice
        if (bar == std::string_view::npos) break;
        spec.remove_prefix(bar + 1);
      }
    }
  });
  CHECK(static_cast<int>(names.size()) == kStageCount);
}
