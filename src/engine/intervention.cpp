// Interventions (intervention.h): the factor of each component, the text form and validation.
#include "engine/intervention.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/text_args.h"

namespace ts {

namespace {

// "12" -> 12; anything else (sign, empty, trailing text) -> -1.
int parse_index(std::string_view s) {
  int v = -1;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0) return -1;
  return v;
}

// "L<layer>.H<head>" | "L<layer>.attn" | "L<layer>.mlp", then optionally "=<factor>".
Result<Intervention> parse_one(std::string_view item) {
  Intervention iv;
  const size_t eq = item.find('=');
  const std::string_view name = trim_space(item.substr(0, eq));
  const auto bad = [&](const std::string& why) {
    return make_error("'" + std::string(item) + "': " + why +
                      " (expected L<layer>.H<head>, L<layer>.attn or L<layer>.mlp, then "
                      "optionally =<factor>)");
  };
  const size_t dot = name.find('.');
  if (name.size() < 2 || name[0] != 'L' || dot == std::string_view::npos) {
    return bad("not a component");
  }
  iv.layer = parse_index(name.substr(1, dot - 1));
  if (iv.layer < 0) return bad("the layer is not a number");
  const std::string_view part = name.substr(dot + 1);
  if (part == "attn") {
    iv.what = Component::Attention;
  } else if (part == "mlp") {
    iv.what = Component::Mlp;
  } else if (part.size() > 1 && part[0] == 'H') {
    iv.what = Component::Head;
    iv.head = parse_index(part.substr(1));
    if (iv.head < 0) return bad("the head is not a number");
  } else {
    return bad("unknown part '" + std::string(part) + "'");
  }
  if (eq != std::string_view::npos) {
    const std::string v(trim_space(item.substr(eq + 1)));
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size() || errno == ERANGE || !std::isfinite(d)) {
      return bad("the factor '" + v + "' is not a finite number");
    }
    iv.scale = static_cast<float>(d);
  }
  return iv;
}

float product_of(const InterventionSet& s, Component what, int layer, int head) {
  float f = 1.0f;
  for (const Intervention& i : s.items) {
    if (i.what == what && i.layer == layer && (what != Component::Head || i.head == head)) {
      f *= i.scale;
    }
  }
  return f;
}

bool same_component(const Intervention& a, const Intervention& b) {
  return a.what == b.what && a.layer == b.layer && (a.what != Component::Head || a.head == b.head);
}

}  // namespace

std::string component_name(const Intervention& i) {
  const std::string l = "L" + std::to_string(i.layer);
  switch (i.what) {
    case Component::Head:
      return l + ".H" + std::to_string(i.head);
    case Component::Attention:
      return l + ".attn";
    case Component::Mlp:
      return l + ".mlp";
  }
  return l;
}

float InterventionSet::head_scale(int layer, int head) const {
  return product_of(*this, Component::Head, layer, head);
}
float InterventionSet::attention_scale(int layer) const {
  return product_of(*this, Component::Attention, layer, 0);
}
float InterventionSet::mlp_scale(int layer) const {
  return product_of(*this, Component::Mlp, layer, 0);
}
bool InterventionSet::touches_heads(int layer) const {
  for (const Intervention& i : items) {
    if (i.what == Component::Head && i.layer == layer && i.scale != 1.0f) return true;
  }
  return false;
}

std::string describe(const InterventionSet& s) {
  if (s.empty()) return "none";
  std::string out;
  for (const Intervention& i : s.items) {
    if (!out.empty()) out += ",";
    out += component_name(i);
    if (i.scale != 0.0f) {  // the shortest of %g and %.9g that reads back as the same float
      char buf[32];
      std::snprintf(buf, sizeof buf, "=%g", static_cast<double>(i.scale));
      if (std::strtof(buf + 1, nullptr) != i.scale) {
        std::snprintf(buf, sizeof buf, "=%.9g", static_cast<double>(i.scale));
      }
      out += buf;
    }
  }
  return out;
}

Result<InterventionSet> parse_interventions(std::string_view text) {
  text = trim_space(text);
  InterventionSet s;
  if (text.empty() || text == "none") return s;
  size_t a = 0;
  while (a <= text.size()) {
    const size_t b = std::min(text.find(',', a), text.size());
    const std::string_view item = trim_space(text.substr(a, b - a));
    if (item.empty()) return make_error("an empty component in '" + std::string(text) + "'");
    Result<Intervention> iv = parse_one(item);
    if (!iv.ok()) return iv.error();
    for (const Intervention& prev : s.items) {
      if (same_component(prev, iv.value())) {
        return make_error(component_name(prev) + " is listed twice");
      }
    }
    s.items.push_back(iv.value());
    a = b + 1;
  }
  return s;
}

Status validate(const InterventionSet& s, const ModelConfig& c) {
  for (size_t k = 0; k < s.items.size(); ++k) {
    const Intervention& i = s.items[k];
    const std::string name = component_name(i);
    if (i.layer < 0 || i.layer >= c.n_layers) {
      return make_error(name + ": the model has " + std::to_string(c.n_layers) + " layers (L0..L" +
                        std::to_string(c.n_layers - 1) + ")");
    }
    if (i.what == Component::Head && (i.head < 0 || i.head >= c.n_heads)) {
      return make_error(name + ": the model has " + std::to_string(c.n_heads) +
                        " heads per layer (H0..H" + std::to_string(c.n_heads - 1) + ")");
    }
    if (!std::isfinite(i.scale)) return make_error(name + ": the factor is not finite");
    for (size_t j = 0; j < k; ++j) {
      if (same_component(s.items[j], i)) return make_error(name + " is listed twice");
    }
  }
  return ok_status();
}

}  // namespace ts
