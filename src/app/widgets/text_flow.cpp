// Text wrapping for the Compare panel (see text_flow.h).
#include "app/widgets/text_flow.h"

namespace ts {

std::vector<FlowPos> wrap_flow(const std::vector<float>& widths, float width, float line_h,
                               float* height) {
  std::vector<FlowPos> out;
  out.reserve(widths.size());
  float x = 0;
  int line = 0;
  for (float w : widths) {
    if (x > 0 && x + w > width) x = 0, ++line;
    out.push_back({x, line * line_h, line});
    x += w;
  }
  if (height) *height = widths.empty() ? 0.0f : (line + 1) * line_h;
  return out;
}

}  // namespace ts
