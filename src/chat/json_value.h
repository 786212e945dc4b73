// A parsed JSON document (nlohmann's ordered_json, so keys keep their order as Python's json
// keeps them) as template values: objects become dicts, arrays lists, numbers int or float.
#pragma once
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "chat/value.h"

namespace ts::chat {

// Fails on nesting deeper than 64 levels and on integers beyond 64 bits.
Result<Value> value_from_json(const nlohmann::ordered_json& j, int depth = 0);

}  // namespace ts::chat
