// The progress of a model load: called with (tensors decoded, tensors in the file) after each
// tensor; returning false cancels the load. The app's worker feeds its progress bar from it.
#pragma once
#include <functional>

namespace ts {

using LoadProgressFn = std::function<bool(int done, int total)>;

}  // namespace ts
