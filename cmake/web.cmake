# The browser build (make web; issue #15): the same core libraries and app as the desktop,
# compiled by emscripten to WebAssembly, linked into tokenscope.js + tokenscope.wasm + a data
# package (models, lessons, fonts), then assembled into one HTML file by web/make_page.py.
# Dear ImGui 1.86 and utf8proc are compiled from Debian's source packages, fetched with the
# header-only libraries by scripts/web-setup.sh into TS_WEB_DEPS.
set(TS_WEB_DEPS "${PROJECT_BINARY_DIR}/deps" CACHE PATH "what scripts/web-setup.sh prepared")
set(imgui_src "${TS_WEB_DEPS}/src/imgui")
set(utf8proc_src "${TS_WEB_DEPS}/src/utf8proc")
if(NOT EXISTS "${imgui_src}/imgui.cpp" OR NOT EXISTS "${utf8proc_src}/utf8proc.c")
  message(FATAL_ERROR "web build: run scripts/web-setup.sh ${TS_WEB_DEPS} first (make web does)")
endif()

# No -march=native here: the page runs on any device. 128-bit WebAssembly SIMD: Eigen 3.4 has no
# WebAssembly kernels of its own, so its SSE2 kernels are compiled through emscripten's SSE
# headers, which map them to WebAssembly SIMD (-msse2; scripts/web-setup.sh prepares the copy
# of Eigen this needs).
set(CMAKE_CXX_FLAGS_RELEASE "-O3 -DNDEBUG")
set(CMAKE_C_FLAGS_RELEASE "-O3 -DNDEBUG")
add_compile_options(-msimd128 -msse2 -fwasm-exceptions)
add_link_options(-fwasm-exceptions)

add_library(ts_web_deps INTERFACE)
target_include_directories(ts_web_deps SYSTEM INTERFACE "${TS_WEB_DEPS}/include")

add_library(ts_utf8proc STATIC "${utf8proc_src}/utf8proc.c")
target_compile_definitions(ts_utf8proc PUBLIC UTF8PROC_STATIC)
target_include_directories(ts_utf8proc SYSTEM PUBLIC "${utf8proc_src}")
set_target_properties(ts_utf8proc PROPERTIES UNITY_BUILD OFF)
# Third-party sources: not held to the project's rule that every function is declared first.
target_compile_options(ts_utf8proc PRIVATE -Wno-missing-prototypes)

add_library(ts_imgui STATIC
  "${imgui_src}/imgui.cpp" "${imgui_src}/imgui_draw.cpp" "${imgui_src}/imgui_tables.cpp"
  "${imgui_src}/imgui_widgets.cpp" "${imgui_src}/misc/cpp/imgui_stdlib.cpp"
  "${imgui_src}/backends/imgui_impl_glfw.cpp" "${imgui_src}/backends/imgui_impl_opengl3.cpp")
target_include_directories(ts_imgui SYSTEM PUBLIC "${imgui_src}" "${imgui_src}/misc/cpp")
set_target_properties(ts_imgui PROPERTIES UNITY_BUILD OFF)
target_compile_options(ts_imgui PRIVATE -Wno-missing-prototypes)
# 32-bit vertex indices: WebGL has no glDrawElementsBaseVertex, so the ES backend cannot split a
# big mesh by vertex offset, and a window with more than 65,536 vertices (the Attention panel's
# 24 x 14 maps of a 0.5B model) would wrap 16-bit indices into garbage. web_main.cpp checks it.
target_compile_definitions(ts_imgui PUBLIC "ImDrawIdx=unsigned int")

ts_module(base      ts_web_deps ts_utf8proc)
ts_module(tokenizer ts_base)
ts_module(engine    ts_base)
ts_module(formats   ts_engine ts_tokenizer)
ts_module(sampling  ts_base ts_engine)
ts_module(decode    ts_base ts_engine ts_sampling)
ts_module(chat      ts_tokenizer)
ts_module(session   ts_decode ts_formats ts_engine ts_sampling ts_tokenizer ts_chat)
ts_module(trace     ts_session)
ts_module(bench     ts_session)
ts_module(lesson    ts_session ts_bench)

# The app without src/app/desktop/ (the desktop's frame loop, worker thread and platform):
# src/app/web/ brings the page's versions of them. The window (src/app/window/) is shared.
file(GLOB_RECURSE app_srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/app/*.cpp)
list(FILTER app_srcs EXCLUDE REGEX "/src/app/desktop/")
add_executable(tokenscope ${app_srcs})
target_include_directories(tokenscope PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(tokenscope PRIVATE ts_lesson ts_bench ts_trace ts_session ts_imgui)
set_target_properties(tokenscope PROPERTIES SUFFIX ".js")

# What the page carries in its file system: the shipped models (the draft too: lesson 15),
# every lesson, the UI fonts.
set(page_data
  "${PROJECT_SOURCE_DIR}/models/tales-4m.gguf@/models/tales-4m.gguf"
  "${PROJECT_SOURCE_DIR}/models/english-4m.gguf@/models/english-4m.gguf"
  "${PROJECT_SOURCE_DIR}/models/tales-draft.gguf@/models/tales-draft.gguf"
  "${PROJECT_SOURCE_DIR}/models/tales-chat-4m.gguf@/models/tales-chat-4m.gguf"
  "${PROJECT_SOURCE_DIR}/lessons@/lessons"
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf@/fonts/DejaVuSans.ttf"
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf@/fonts/DejaVuSans-Bold.ttf"
  "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf@/fonts/DejaVuSansMono.ttf")
set(preload "")
foreach(d ${page_data})
  list(APPEND preload "SHELL:--preload-file ${d}")
endforeach()
target_link_options(tokenscope PRIVATE
  -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB -sABORTING_MALLOC=0
  -sENVIRONMENT=web -sFORCE_FILESYSTEM=1 -sEXIT_RUNTIME=0
  "-sEXPORTED_RUNTIME_METHODS=['FS','ccall','UTF8ToString']"
  "-sEXPORTED_FUNCTIONS=['_main','_ts_web_model_chosen','_ts_web_message','_ts_web_report_state']"
  ${preload})

# Relink (and so repack the data) when a model, a lesson or a font changes.
file(GLOB page_lessons CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lessons/*)
set(page_inputs ${page_lessons})
foreach(d ${page_data})
  string(REGEX REPLACE "@.*$" "" f "${d}")
  if(NOT IS_DIRECTORY "${f}")
    list(APPEND page_inputs "${f}")
  endif()
endforeach()
set_target_properties(tokenscope PROPERTIES LINK_DEPENDS "${page_inputs}")

add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/tokenscope.html
  COMMAND python3 ${PROJECT_SOURCE_DIR}/src/app/web/make_page.py
          --js ${PROJECT_BINARY_DIR}/tokenscope.js --wasm ${PROJECT_BINARY_DIR}/tokenscope.wasm
          --data ${PROJECT_BINARY_DIR}/tokenscope.data
          --shell ${PROJECT_SOURCE_DIR}/src/app/web/shell.html
          --loader ${PROJECT_SOURCE_DIR}/src/app/web/loader.js
          --out ${PROJECT_BINARY_DIR}/tokenscope.html
  DEPENDS tokenscope ${PROJECT_SOURCE_DIR}/src/app/web/make_page.py
          ${PROJECT_SOURCE_DIR}/src/app/web/shell.html ${PROJECT_SOURCE_DIR}/src/app/web/loader.js
  COMMENT "one self-contained page: build-web/tokenscope.html")
add_custom_target(page ALL DEPENDS ${PROJECT_BINARY_DIR}/tokenscope.html)
