// Opening a trace for stepping: the run a trace JSON records (model, prompt, settings, each
// lane's path with its forced tokens, the cursor) is replayed into a Session and checked token by
// token against the trace, so a teacher can hand a run to students and it comes back exactly.
// Needs the trace's model file (or the same model already loaded). No UI here.
#pragma once
#include <string>

#include "base/error.h"
#include "trace/trace_json.h"

namespace ts {

class Session;

// Loads the trace's model unless `s` already has that file loaded (tokenizer_path: a llama2.c
// checkpoint's tokenizer.bin), then sets prompt, record level, limits and lanes, steps every lane
// along its recorded path (running a step again with the intervention the trace records there,
// forcing where the trace forced, changing the sampler where a step
// records other settings than the one before, as Session::branch_sampler), seeks to the trace's
// cursor and
// compares every chosen token with the trace (a lane recorded shorter than another, after a rewind
// and a fork, may get more steps past its end: lanes step together). Errors name the first difference (lane, step,
// tokens) or the missing model file; on error the session holds whatever was replayed so far.
Status replay_trace(Session& s, const Trace& t, const std::string& tokenizer_path = "");

}  // namespace ts
