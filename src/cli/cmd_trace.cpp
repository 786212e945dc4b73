// `tokenscope trace --json FILE`: runs a generation like `generate` (record level full by
// default; --ablate too) and writes the full record of the run as JSON (schema:
// docs/trace-schema.md); --receipts adds each step's token receipt.
#include "cli/cli_commands.h"
#include "cli/cli_common.h"
#include "session/command.h"
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
  bool receipts = false;
  std::string receipt_vs;
  app.add_flag("--receipts", receipts,
               "add each step's token receipt (why its token and not the runner-up)");
  app.add_option("--receipt-vs", receipt_vs,
                 "--receipts: against this token (a piece, or #ID) instead of the runner-up");
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  if (!receipt_vs.empty() && !receipts) return fail(err, "trace", "--receipt-vs needs --receipts");

  Session s;
  if (Status st = setup_session(s, m, g); !st.ok()) return fail(err, "trace", st.error().message);
  while (!all_stopped(s)) {
    if (Status st = step_with_ablation(s, g); !st.ok())
      return fail(err, "trace", st.error().message);
  }
  Trace t = make_trace(s);
  if (receipts) {
    int rival = -1;
    if (!receipt_vs.empty()) {
      Result<int> id = token_for_piece(s, receipt_vs);
      if (!id.ok()) return fail(err, "trace", "--receipt-vs: " + id.error().message);
      rival = id.value();
    }
    if (Status st = add_receipts(t, s, -1, rival); !st.ok()) {
      return fail(err, "trace", st.error().message);
    }
  }
  if (Status st = write_trace_json(t, json_path); !st.ok()) {
    return fail(err, "trace", st.error().message);
  }
  out << "wrote " << json_path << ": " << lane_count(s) << " lane(s), " << max_path_length(s)
      << " steps, record level " << record_level_name(record_level(s)) << "\n";
  return 0;
}

}  // namespace ts::cli
