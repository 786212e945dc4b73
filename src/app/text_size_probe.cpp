// Glyph sizes from the draw data (see text_size_probe.h).
#include "app/text_size_probe.h"

#include <cmath>
#include <map>
#include <utility>

#include "imgui.h"

namespace ts {

TextSizeReport measure_text_sizes(const ImDrawData* dd) {
  TextSizeReport rep;
  if (!dd) return rep;
  // A glyph's top-left texture coordinate -> (font size it was baked at, its height there).
  std::map<std::pair<float, float>, std::pair<float, float>> glyphs;
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  for (const ImFont* f : atlas->Fonts)
    for (const ImFontGlyph& g : f->Glyphs)
      if (g.Visible && g.Y1 > g.Y0 + 1.0f) glyphs[{g.U0, g.V0}] = {f->FontSize, g.Y1 - g.Y0};
  for (int l = 0; l < dd->CmdListsCount; ++l) {
    const ImDrawList* dl = dd->CmdLists[l];
    const ImDrawVert* v = dl->VtxBuffer.Data;
    const int n = dl->VtxBuffer.Size;
    for (int i = 0; i + 3 < n; ++i) {
      const auto it = glyphs.find({v[i].uv.x, v[i].uv.y});
      if (it == glyphs.end()) continue;
      // A glyph quad: top-left, top-right, bottom-right, bottom-left.
      if (v[i + 1].pos.y != v[i].pos.y || v[i + 3].pos.x != v[i].pos.x) continue;
      const float h = v[i + 2].pos.y - v[i].pos.y;
      if (!(h > 0)) continue;
      const float px = it->second.first * h / it->second.second;
      ++rep.glyphs;
      if (rep.smallest_px == 0 || px < rep.smallest_px) {
        rep.smallest_px = px;
        rep.x = v[i].pos.x;
        rep.y = v[i].pos.y;
      }
      i += 3;
    }
  }
  return rep;
}

}  // namespace ts
