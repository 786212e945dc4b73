// What differs between the desktop window and the web page, behind one small interface: the
// desktop implementation (platform_desktop.cpp) leaves files where they were written and has
// no file picker of its own; the web page's (src/app/web/platform_web.cpp) offers exported files as
// downloads, opens the browser's file picker, and keeps the settings file in local storage.
// The class poll's server runs on the desktop only (make_poll_host; the page has none).
// The app calls these; nothing here draws or touches the session.
#pragma once
#include <memory>
#include <string>

namespace ts {
class PollHost;  // app/poll_host.h
}

namespace ts::platform {

// A file the user asked for (an exported PNG or trace) was written at `path`.
void offer_file(const std::string& path);
// The settings file at `path` was rewritten.
void settings_written(const std::string& path);
// True where the platform has its own file picker for models (the browser's).
bool has_model_picker();
// Opens that picker; the chosen file arrives later as a LoadModel command (see web_main.cpp).
void pick_model_file();
// True where the app itself switches to full screen (the desktop window: F11, View menu,
// --fullscreen); the web page leaves it to the browser's own F11.
bool can_go_fullscreen();
// The class poll's host (desktop/poll_host_desktop.cpp), or nullptr where none can run: a web
// page cannot listen for connections.
std::unique_ptr<PollHost> make_poll_host();

}  // namespace ts::platform
