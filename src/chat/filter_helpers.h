// Helpers the filter files share (filters.cpp, filters_seq.cpp): Jinja2's attribute paths
// ("a.b", "0"), the case folding of its case-insensitive comparisons, len(), and the entry to the
// filters that take sequences (map, select, sort, ...).
#pragma once
#include <cstdint>
#include <string>

#include "chat/value.h"

namespace ts::chat {

// The value an attribute path reaches from `item` (each part through get_item, digits as
// indices), as Jinja2's make_attrgetter.
Value attr_path(Interp& in, Value item, const std::string& path, int line);
// Strings lower-cased (the key of case-insensitive sort, unique, min, max); others as they are.
Value ignore_case(const Value& v, int line);
// Python's len(); undefined has length 0; generators and numbers have none.
int64_t len_of(const Value& v, int line);
// & < > " ' as HTML entities, as Jinja2's escape writes them.
std::string html_escape(const std::string& s);
// The sequence filters; `found` is false when `name` is none of them.
Value apply_seq_filter(Interp& in, const std::string& name, Value& v, CallArgs& a, bool& found);

}  // namespace ts::chat
