// The desktop app's entry point (Dear ImGui + GLFW + OpenGL 3). Options: --model FILE,
// --prompt TEXT, --script FILE, --screenshot FILE, --size WxH, --font-size N.
#pragma once

namespace ts {

int app_main(int argc, char** argv);

}  // namespace ts
