// SplitMix::normal (Box-Muller).
#include "base/rng.h"

#include <cmath>

namespace ts {

double SplitMix::normal() {
  double u1 = uniform();
  double u2 = uniform();
  if (u1 < 1e-300) u1 = 1e-300;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace ts
