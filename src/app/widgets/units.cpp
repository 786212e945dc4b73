// SI / binary prefix formatting with three significant digits.
#include "app/widgets/units.h"

#include <cmath>
#include <cstdio>

namespace ts {
namespace {

std::string three_digits(double v, const char* prefix, const char* unit) {
  char buf[64];
  const double a = std::fabs(v);
  const char* fmt = a >= 100 ? "%.0f %s%s" : a >= 10 ? "%.1f %s%s" : "%.2f %s%s";
  std::snprintf(buf, sizeof buf, fmt, v, prefix, unit);
  return buf;
}

}  // namespace

std::string format_si(double v, const char* unit) {
  static constexpr const char* kPrefix[] = {"", "k", "M", "G", "T", "P"};
  if (!std::isfinite(v)) return std::string("- ") + unit;
  int i = 0;
  while (std::fabs(v) >= 999.5 && i < 5) v /= 1000.0, ++i;
  if (i == 0 && v == std::floor(v)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f %s", v, unit);
    return buf;
  }
  return three_digits(v, kPrefix[i], unit);
}

std::string format_bytes(double bytes) {
  static constexpr const char* kPrefix[] = {"", "Ki", "Mi", "Gi", "Ti"};
  if (!std::isfinite(bytes)) return "- B";
  int i = 0;
  while (std::fabs(bytes) >= 1023.5 && i < 4) bytes /= 1024.0, ++i;
  if (i == 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    return buf;
  }
  return three_digits(bytes, kPrefix[i], "B");
}

std::string format_seconds(double s) {
  if (!(s > 0) || !std::isfinite(s)) return "-";
  if (s >= 1.0) return three_digits(s, "", "s");
  if (s >= 1e-3) return three_digits(s * 1e3, "m", "s");
  if (s >= 1e-6) return three_digits(s * 1e6, "\xC2\xB5", "s");
  return three_digits(s * 1e9, "n", "s");
}

std::string format_ratio(double r) {
  char buf[32];
  if (!std::isfinite(r)) return "-";
  std::snprintf(buf, sizeof buf, r >= 100 ? "%.0fx" : r >= 10 ? "%.1fx" : "%.2fx", r);
  return buf;
}

std::string percent_text(double p) {
  char buf[32];
  const double pct = 100.0 * p;
  if (!(pct > 0)) return "0%";
  if (pct >= 0.0995)
    std::snprintf(buf, sizeof buf, "%.1f%%", pct);
  else if (pct < 0.001)
    return "< 0.001%";
  else
    std::snprintf(buf, sizeof buf, "%.2g%%", pct);
  return buf;
}

std::string count_text(long n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace ts
