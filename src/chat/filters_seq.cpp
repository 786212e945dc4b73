// The filters that walk a sequence with another filter, a test, an attribute or an order: map,
// select / reject, selectattr / rejectattr, unique, sort, dictsort, reverse, sum, min, max, attr.
// Sorting is stable and, as in Jinja2, compares strings case-insensitively unless told otherwise.
#include <algorithm>

#include "chat/builtins.h"
#include "chat/filter_helpers.h"
#include "chat/interp.h"

namespace ts::chat {

namespace {

// select/reject (attr=false) and selectattr/rejectattr (attr=true): keep the items whose test
// (or truth, without a test name) equals `keep`.
Value select_items(Interp& in, Value& v, CallArgs& a, bool attr, bool keep) {
  if (!truthy(v)) return Value::new_view({}, "generator");  // Jinja2 looks at nothing then
  if (!a.kw.empty()) fail_unsupported("keyword arguments to select/reject filters", a.line);
  size_t k = 0;
  std::string path;
  if (attr) {
    if (a.pos.empty()) fail("selectattr/rejectattr need an attribute name", a.line);
    path = py_str(a.pos[k++]);
  }
  std::string test;
  if (k < a.pos.size()) {
    if (!a.pos[k].is_string()) fail("the test name must be a string", a.line);
    test = a.pos[k++].s;
    if (test_support(test) == Support::JinjaOnly) fail_unsupported("test '" + test + "'", a.line);
    if (test_support(test) != Support::Yes) fail("no test named '" + test + "'", a.line);
  }
  CallArgs targs;
  targs.line = a.line;
  targs.pos.assign(a.pos.begin() + static_cast<long>(k), a.pos.end());
  std::vector<Value> out;
  for (const Value& item : iterate(v, a.line)) {
    in.step(a.line);
    const Value subject = attr ? attr_path(in, item, path, a.line) : item;
    const bool r = test.empty() ? truthy(subject) : apply_test(in, test, subject, targs);
    if (r == keep) out.push_back(item);
  }
  return Value::new_view(std::move(out), "generator");
}

Value map_items(Interp& in, Value& v, CallArgs& a) {
  if (!truthy(v)) return Value::new_view({}, "generator");  // Jinja2 looks at nothing then
  std::vector<Value> out;
  const std::vector<Value> items = iterate(v, a.line);
  const Value* attribute = nullptr;
  const Value* dflt = nullptr;
  for (const auto& kv : a.kw) {
    if (kv.first == "attribute")
      attribute = &kv.second;
    else if (kv.first == "default")
      dflt = &kv.second;
  }
  if (attribute) {
    for (const auto& kv : a.kw) {
      if (kv.first != "attribute" && kv.first != "default")
        fail("map has no argument '" + kv.first + "'", a.line);
    }
    for (const Value& item : items) {
      Value r = attr_path(in, item, py_str(*attribute), a.line);
      if (r.is_undefined() && dflt && !dflt->is_none()) r = *dflt;
      out.push_back(std::move(r));
    }
    return Value::new_view(std::move(out), "generator");
  }
  if (a.pos.empty() || !a.pos[0].is_string()) fail("map needs a filter name or attribute=", a.line);
  const std::string name = a.pos[0].s;
  if (filter_support(name) == Support::JinjaOnly) fail_unsupported("filter '" + name + "'", a.line);
  if (filter_support(name) != Support::Yes) fail("no filter named '" + name + "'", a.line);
  for (const Value& item : items) {
    in.step(a.line);
    CallArgs fa;
    fa.line = a.line;
    fa.pos.assign(a.pos.begin() + 1, a.pos.end());
    fa.kw = a.kw;
    out.push_back(apply_filter(in, name, item, fa));
  }
  return Value::new_view(std::move(out), "generator");
}

// The sort key of an item: its attribute (if asked), lower-cased unless case-sensitive.
Value sort_key(Interp& in, const Value& item, const Value* attribute, bool case_sensitive,
               int line) {
  Value k =
      attribute && !attribute->is_none() ? attr_path(in, item, py_str(*attribute), line) : item;
  return case_sensitive ? k : ignore_case(k, line);
}

void stable_sort(std::vector<std::pair<Value, Value>>& keyed, bool reverse, int line) {
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
    return reverse ? py_less(y.first, x.first, line) : py_less(x.first, y.first, line);
  });
}

Value sort_items(Interp& in, Value& v, CallArgs& a) {
  check_args(a, 0, {"reverse", "case_sensitive", "attribute"}, "sort");
  const Value* r = arg(a, 0, "reverse");
  const Value* cs = arg(a, 1, "case_sensitive");
  std::vector<std::pair<Value, Value>> keyed;
  for (const Value& item : iterate(v, a.line)) {
    keyed.emplace_back(sort_key(in, item, arg(a, 2, "attribute"), cs && truthy(*cs), a.line), item);
  }
  stable_sort(keyed, r && truthy(*r), a.line);
  std::vector<Value> out;
  for (auto& kv : keyed) out.push_back(std::move(kv.second));
  return Value::new_list(std::move(out));
}

Value dictsort_items(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"case_sensitive", "by", "reverse"}, "dictsort");
  if (!v.is_dict()) fail("dictsort needs a dict", a.line);
  const Value* cs = arg(a, 0, "case_sensitive");
  const Value* by = arg(a, 1, "by");
  const Value* r = arg(a, 2, "reverse");
  const std::string order = by ? py_str(*by) : "key";
  if (order != "key" && order != "value") fail("dictsort's by must be 'key' or 'value'", a.line);
  std::vector<std::pair<Value, Value>> keyed;
  for (const auto& kv : v.dict->items) {
    Value item = Value::new_list({Value::string(kv.first), kv.second}, true);
    Value key = order == "key" ? Value::string(kv.first) : kv.second;
    if (!(cs && truthy(*cs))) key = ignore_case(key, a.line);
    keyed.emplace_back(std::move(key), std::move(item));
  }
  stable_sort(keyed, r && truthy(*r), a.line);
  std::vector<Value> out;
  for (auto& kv : keyed) out.push_back(std::move(kv.second));
  return Value::new_list(std::move(out));
}

Value unique_items(Interp& in, Value& v, CallArgs& a) {
  check_args(a, 0, {"case_sensitive", "attribute"}, "unique");
  const Value* cs = arg(a, 0, "case_sensitive");
  std::vector<Value> seen, out;
  for (const Value& item : iterate(v, a.line)) {
    const Value key = sort_key(in, item, arg(a, 1, "attribute"), cs && truthy(*cs), a.line);
    if (key.is_list() || key.is_dict() || key.kind == Value::Kind::Namespace) {
      fail(std::string("unhashable type: '") + type_name(key) + "'", a.line);
    }
    bool dup = false;
    for (const Value& s : seen) dup = dup || py_equal(s, key);
    in.step(a.line);
    if (!dup) {
      seen.push_back(key);
      out.push_back(item);
    }
  }
  return Value::new_view(std::move(out), "generator");
}

Value reverse_items(Interp&, Value& v, CallArgs& a) {
  if (v.is_string()) {
    std::vector<Value> chars = iterate(v, a.line);
    std::string out;
    for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += it->s;
    return Value::string(std::move(out));
  }
  const bool reversible = (v.is_list() && v.list->view != "generator") || v.is_dict();
  std::vector<Value> items = iterate(v, a.line);
  std::reverse(items.begin(), items.end());
  if (reversible) return Value::new_view(std::move(items), "generator");
  return Value::new_list(std::move(items));  // Jinja2 falls back to a reversed list
}

Value sum_items(Interp& in, Value& v, CallArgs& a) {
  check_args(a, 0, {"attribute", "start"}, "sum");
  const Value* attribute = arg(a, 0, "attribute");
  const Value* start = arg(a, 1, "start");
  Value total = start ? *start : Value::integer(0);
  for (const Value& item : iterate(v, a.line)) {
    const Value x =
        attribute && !attribute->is_none() ? attr_path(in, item, py_str(*attribute), a.line) : item;
    total = arith(in, "+", total, x, a.line);
  }
  return total;
}

Value min_max(Interp& in, Value& v, CallArgs& a, bool max) {
  check_args(a, 0, {"case_sensitive", "attribute"}, max ? "max" : "min");
  const Value* cs = arg(a, 0, "case_sensitive");
  const std::vector<Value> items = iterate(v, a.line);
  if (items.empty()) return Value::undefined("no aggregated item, the sequence was empty");
  size_t best = 0;
  Value best_key = sort_key(in, items[0], arg(a, 1, "attribute"), cs && truthy(*cs), a.line);
  for (size_t k = 1; k < items.size(); ++k) {
    Value key = sort_key(in, items[k], arg(a, 1, "attribute"), cs && truthy(*cs), a.line);
    if (max ? py_less(best_key, key, a.line) : py_less(key, best_key, a.line)) {
      best = k;
      best_key = std::move(key);
    }
  }
  return items[best];
}

}  // namespace

Value apply_seq_filter(Interp& in, const std::string& name, Value& v, CallArgs& a, bool& found) {
  found = true;
  if (name == "map") return map_items(in, v, a);
  if (name == "select") return select_items(in, v, a, false, true);
  if (name == "reject") return select_items(in, v, a, false, false);
  if (name == "selectattr") return select_items(in, v, a, true, true);
  if (name == "rejectattr") return select_items(in, v, a, true, false);
  if (name == "unique") return unique_items(in, v, a);
  if (name == "sort") return sort_items(in, v, a);
  if (name == "dictsort") return dictsort_items(in, v, a);
  if (name == "reverse") return reverse_items(in, v, a);
  if (name == "sum") return sum_items(in, v, a);
  if (name == "min") return min_max(in, v, a, false);
  if (name == "max") return min_max(in, v, a, true);
  if (name == "attr") {
    check_args(a, 1, {}, "attr");
    if (a.pos.empty() || !a.pos[0].is_string()) fail("attr needs a name", a.line);
    const std::string& n = a.pos[0].s;
    // Only Python attributes: a dict's keys are not attributes here.
    if (v.is_dict() && n != "items" && n != "keys" && n != "values" && n != "get") {
      return Value::undefined(n);
    }
    return get_attr(v, n, a.line);
  }
  found = false;
  return Value::undefined();
}

}  // namespace ts::chat
