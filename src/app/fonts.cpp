// Font atlas construction (see fonts.h). Uses ImFontGlyphRangesBuilder so the atlas holds the
// Latin, Greek, Cyrillic and symbol glyphs chips and arrows need, and nothing else (small
// texture, fast rebuild when the teacher presses Ctrl +). Glyphs a face lacks (the bold and mono
// faces have no ☃) are merged in from fallback fonts: DejaVu Sans, then Noto when installed.
// No GPU work here.
#include "app/fonts.h"
#include "app/ui_types.h"

#include <filesystem>
#include <vector>

namespace ts {
namespace {

// Ranges are read by ImGui while building, so they must outlive the call: ImFontAtlas keeps a
// pointer. The builder's output vector is owned by the atlas user data below.
struct GlyphRanges {
  ImVector<ImWchar> ranges;
};

GlyphRanges& atlas_ranges() {
  // Kept with the atlas for its lifetime; rebuilt only together with the atlas.
  static GlyphRanges r;  // not app state: a constant table computed once
  if (r.ranges.empty()) {
    ImFontGlyphRangesBuilder b;
    b.AddRanges(ImGui::GetIO().Fonts->GetGlyphRangesDefault());  // Basic Latin + Latin-1
    b.AddRanges(ImGui::GetIO().Fonts->GetGlyphRangesCyrillic());
    static const ImWchar extra[] = {
        0x0100, 0x024F,  // Latin Extended-A/B
        0x0370, 0x03FF,  // Greek
        0x2000, 0x206F,  // General Punctuation (… – — ‘ ’ “ ”)
        0x2190, 0x21FF,  // Arrows (← → ↵ ⇥)
        0x2200, 0x22FF,  // Mathematical operators (≤ ≥ ≈ ∑)
        0x2300, 0x23FF,  // Misc technical (⏎)
        0x2400, 0x243F,  // Control pictures (␣)
        0x2500, 0x259F,  // Box drawing, block elements (▁ █)
        0x25A0, 0x25FF,  // Geometric shapes (▶ ◀ ●)
        0x2600, 0x26FF,  // Miscellaneous symbols (☃ ☺ ★)
        0x2700, 0x27BF,  // Dingbats (✓ ✗)
        0,
    };
    b.AddRanges(extra);
    b.BuildRanges(&r.ranges);
  }
  return r;
}

bool file_exists(const std::string& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

// Adds `file` at `size` and merges the fallbacks into it (only glyphs it lacks are taken).
void add_face(const std::string& file, float size, const std::vector<std::string>& fallbacks) {
  ImGuiIO& io = ImGui::GetIO();
  const ImWchar* ranges = atlas_ranges().ranges.Data;
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  io.Fonts->AddFontFromFileTTF(file.c_str(), size, &cfg, ranges);
  cfg.MergeMode = true;
  for (const std::string& f : fallbacks)
    if (f != file) io.Fonts->AddFontFromFileTTF(f.c_str(), size, &cfg, ranges);
}

}  // namespace

bool build_fonts(float size_px, std::string* error) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const std::string dir = font_directory();
  const std::string sans = dir + "/DejaVuSans.ttf";
  const std::string mono = dir + "/DejaVuSansMono.ttf";
  const std::string bold = dir + "/DejaVuSans-Bold.ttf";
  for (const std::string& f : {sans, mono, bold}) {
    if (!file_exists(f)) {
      if (error) *error = "font not found: " + f + " (install fonts-dejavu-core)";
      ImFontConfig cfg;
      cfg.SizePixels = size_px;
      for (int i = 0; i < 5; ++i) io.Fonts->AddFontDefault(&cfg);
      return false;
    }
  }
  std::vector<std::string> fallbacks = {sans};
  for (const char* noto : {"/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                           "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf",
                           "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"})
    if (file_exists(noto)) fallbacks.push_back(noto);
  add_face(sans, size_px, fallbacks);          // Regular
  add_face(sans, size_px * kSmallFontRatio, fallbacks);  // Small
  add_face(mono, size_px * 0.92f, fallbacks);  // Mono
  add_face(bold, size_px, fallbacks);          // Bold
  add_face(bold, size_px * 1.5f, fallbacks);   // Large
  io.FontDefault = io.Fonts->Fonts[0];
  return io.Fonts->Build();
}

ImFont* app_font(FontRole role) {
  const ImGuiIO& io = ImGui::GetIO();
  const int i = static_cast<int>(role);
  if (i < io.Fonts->Fonts.Size) return io.Fonts->Fonts[i];
  return ImGui::GetFont();
}

}  // namespace ts
