// Default model lookup: builds the candidate list and picks the first file that exists.
#include "session/default_model.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace ts {

namespace fs = std::filesystem;

std::vector<std::string> default_model_candidates(const std::string& source_dir,
                                                  const std::string& exe_path) {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("TOKENSCOPE_MODELS"); env && *env) {
    dirs.emplace_back(fs::path(env));  // the models folder itself...
    dirs.emplace_back(fs::path(env) / "models");  // ...or a folder that holds models/
  }
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (!ec) dirs.push_back(cwd / "models");
  fs::path exe = exe_path.empty() ? fs::read_symlink("/proc/self/exe", ec) : fs::path(exe_path);
  if (!exe.empty()) {
    const fs::path dir = fs::absolute(exe, ec).parent_path();
    dirs.push_back(dir / "models");
    dirs.push_back(dir.parent_path() / "models");
  }
  if (!source_dir.empty()) dirs.push_back(fs::path(source_dir) / "models");

  std::vector<std::string> out;
  for (const fs::path& d : dirs) {
    std::string p = (d / kDefaultModelName).lexically_normal().string();
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  }
  return out;
}

Result<std::string> find_default_model(const std::string& source_dir,
                                       const std::string& exe_path) {
  const std::vector<std::string> cands = default_model_candidates(source_dir, exe_path);
  std::error_code ec;
  for (const std::string& p : cands) {
    if (fs::is_regular_file(p, ec)) return p;
  }
  std::string msg = std::string("default model ") + kDefaultModelName +
                    " not found (it is built by 'tokenscope train' or shipped in models/); "
                    "searched: ";
  for (size_t i = 0; i < cands.size(); ++i) msg += (i ? ", " : "") + cands[i];
  msg += "; pass --model FILE or set TOKENSCOPE_MODELS";
  return make_error(msg);
}

}  // namespace ts
