// Commands composed of Session's own: moving the cursor to the start, the end or one step back,
// pausing, and changing one of the generation settings.
#pragma once
#include <vector>

#include "session/session.h"

namespace ts {

Status first(Session& s);  // seek(-1): nothing computed, every KV cache empty
Status last(Session& s);   // seek to the end of the longest current path
Status back(Session& s);   // cursor - 1 (down to -1: before the prefill)
Status pause(Session& s);  // play(0)

Status set_record_level(Session& s, RecordLevel level);               // recomputes up to the cursor
Status set_max_tokens(Session& s, int max_new_tokens);                // >= 1; recomputes
Status set_stop_strings(Session& s, std::vector<std::string> stops);  // non-empty; recomputes

}  // namespace ts
