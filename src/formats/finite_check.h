// One check shared by the loaders: a weight tensor must hold only finite numbers. A NaN or Inf
// in a file is reported with the file, the tensor and the first bad index; it is never fixed up.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>

#include "base/error.h"

namespace ts {

inline Status check_finite(const float* data, size_t n, const std::string& file,
                           const std::string& tensor) {
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(data[i])) {
      return make_error(file + ": tensor " + tensor + " has " +
                        (std::isnan(data[i]) ? "a NaN" : "an infinite") + " value at index " +
                        std::to_string(i));
    }
  }
  return ok_status();
}

}  // namespace ts
