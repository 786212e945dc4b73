// `tokenscope trace --json FILE`: runs a generation like `generate` (record level full by
// default) and writes the full record of the run as JSON (schema: docs/trace-schema.md).
#include "cli/cli_commands.h"
#include "cli/cli_common.h"
#include "session/path_queries.h"
#include "session/session_access.h"
#include "trace/trace_json.h"

namespace ts::cli {

int cmd_trace(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Run a generation and write its full record as JSON.", "tokenscope trace"};
  ModelOptions m;
  GenOptions g;
  g.record = "full";
  std::string json_path;
  add_model_options(app, m);
  add_generation_options(app, g, true);
  app.add_option("--json", json_path, "output file (docs/trace-schema.md)")->required();
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;

  Session s;
  if (Status st = setup_session(s, m, g); !st.ok()) return fail(err, "trace", st.error().message);
  while (!all_stopped(s)) {
    if (Status st = s.step(); !st.ok()) return fail(err, "trace", st.error().message);
  }
  if (Status st = write_trace_json(s, json_path); !st.ok()) {
    return fail(err, "trace", st.error().message);
  }
  out << "wrote " << json_path << ": " << lane_count(s) << " lane(s), " << max_path_length(s)
      << " steps, record level " << record_level_name(record_level(s)) << "\n";
  return 0;
}

}  // namespace ts::cli
