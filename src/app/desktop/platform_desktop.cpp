// The desktop side of platform.h: exported files stay where they were written (the status bar
// names them), settings are a file under ~/.config, and models are opened by path.
#include "app/platform.h"

namespace ts::platform {

void offer_file(const std::string&) {}
void settings_written(const std::string&) {}
bool has_model_picker() { return false; }
void pick_model_file() {}

bool can_go_fullscreen() { return true; }

}  // namespace ts::platform
