// The web page's side of platform.h: an exported file becomes a download, the settings file is
// copied to the browser's local storage (web_main.cpp puts it back at start), and "Open model"
// opens the browser's file picker; the chosen file is written into the page's file system and
// handed to the app as a LoadModel command (ts_web_model_chosen in web_main.cpp). No class poll.
#include <emscripten.h>

#include "app/platform.h"
#include "app/poll_host.h"

// clang-format off
EM_JS(void, ts_js_download, (const char* path), {
  const p = UTF8ToString(path);
  try {
    const data = FS.readFile(p);
    const url = URL.createObjectURL(new Blob([data]));
    const a = document.createElement('a');
    a.href = url;
    a.download = p.split('/').pop();
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    Module.ccall('ts_web_message', null, ['string', 'number'],
                 ['cannot offer ' + p + ' as a download: ' + e, 1]);
  }
});

EM_JS(void, ts_js_store_settings, (const char* path), {
  try {
    localStorage.setItem('tokenscope.settings', FS.readFile(UTF8ToString(path), {encoding: 'utf8'}));
  } catch (e) {
    console.warn('tokenscope: settings not kept (local storage unavailable): ' + e);
  }
});

EM_JS(void, ts_js_pick_model, (), {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.gguf,.bin';
  input.onchange = async () => {
    const f = input.files && input.files[0];
    if (!f) return;
    try {
      const bytes = new Uint8Array(await f.arrayBuffer());
      FS.mkdirTree('/uploads');
      const path = '/uploads/' + f.name.replace(/[^A-Za-z0-9._ -]/g, '_');
      FS.writeFile(path, bytes);
      Module.ccall('ts_web_model_chosen', null, ['string'], [path]);
    } catch (e) {
      Module.ccall('ts_web_message', null, ['string', 'number'],
                   ['cannot open ' + f.name + ' in this page (' + (f.size / 1048576).toFixed(0) +
                    ' MB): ' + (e && e.message ? e.message : e), 1]);
    }
  };
  input.click();
});
// clang-format on

namespace ts::platform {

void offer_file(const std::string& path) { ts_js_download(path.c_str()); }
void settings_written(const std::string& path) { ts_js_store_settings(path.c_str()); }
bool has_model_picker() { return true; }
void pick_model_file() { ts_js_pick_model(); }

bool can_go_fullscreen() { return false; }

// A page in a browser cannot accept connections: no class poll here (the menu says so).
std::unique_ptr<PollHost> make_poll_host() { return nullptr; }

}  // namespace ts::platform
