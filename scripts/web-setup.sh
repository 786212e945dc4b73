#!/usr/bin/env bash
# Prepares the browser build (make web): Debian's emscripten and chromium, the sources of Dear
# ImGui 1.86 and utf8proc from Debian's source packages, and the header-only libraries the
# core uses (Eigen, nlohmann-json, stb) gathered into one include folder for the WebAssembly
# compiler. Source packages are fetched with a deb-src entry in this script's own apt
# configuration (under DEPS), never the system's. Nothing is downloaded from elsewhere.
#   usage: scripts/web-setup.sh DEPS_DIR      (make web uses build-web/deps)
set -euo pipefail
deps=${1:?usage: web-setup.sh DEPS_DIR}
mkdir -p "$deps"
deps=$(cd "$deps" && pwd)

pkgs=(emscripten chromium libeigen3-dev nlohmann-json3-dev libstb-dev fonts-dejavu-core dpkg-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    [ ${#missing[@]} -eq 0 ] || { echo "web-setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "web-setup: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Source packages through a private apt configuration: its own sources list (deb-src only), its
# own package lists and download folder; the system's apt setup is not touched.
src="$deps/src"
if [ ! -f "$src/imgui/imgui.cpp" ] || [ ! -f "$src/utf8proc/utf8proc.c" ]; then
  apt_dir="$deps/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$src"
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
    >"$apt_dir/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
            -o APT::Sandbox::User=root)
  echo "web-setup: fetching the source packages imgui and utf8proc (deb-src, $apt_dir)"
  apt-get "${apt_opts[@]}" update -q >/dev/null
  rm -rf "$src/unpack" && mkdir -p "$src/unpack"
  (cd "$src/unpack" && apt-get "${apt_opts[@]}" source -q imgui utf8proc >/dev/null)
  rm -rf "$src/imgui" "$src/utf8proc"
  mv "$src"/unpack/imgui-*/ "$src/imgui"
  mv "$src"/unpack/utf8proc-*/ "$src/utf8proc"
  rm -rf "$src/unpack"
fi

# Header-only libraries, one include folder (the WebAssembly compiler must not see /usr/include).
inc="$deps/include"
mkdir -p "$inc"
# Eigen is copied, not linked: its SSE kernels (which emscripten compiles to WebAssembly SIMD)
# guard against an old GCC bug with x86 inline assembly whenever the compiler claims an old GCC,
# as clang does; the copy skips that guard under emscripten (a one-line change, pmin/pmax).
if [ ! -f "$inc/Eigen/.tokenscope-web" ]; then
  rm -rf "$inc/Eigen"
  cp -r /usr/include/eigen3/Eigen "$inc/Eigen"
  sed -i 's/^#if EIGEN_COMP_GNUC && EIGEN_COMP_GNUC < 63$/#if EIGEN_COMP_GNUC \&\& EIGEN_COMP_GNUC < 63 \&\& !defined(__EMSCRIPTEN__)/' \
    "$inc/Eigen/src/Core/arch/SSE/PacketMath.h"
  grep -q '!defined(__EMSCRIPTEN__)' "$inc/Eigen/src/Core/arch/SSE/PacketMath.h" ||
    { echo "web-setup: Eigen's SSE header is not the expected 3.4 one" >&2; exit 1; }
  touch "$inc/Eigen/.tokenscope-web"
fi
ln -sfn /usr/include/eigen3/unsupported "$inc/unsupported"
ln -sfn /usr/include/nlohmann "$inc/nlohmann"
for h in stb_image_write.h stb_truetype.h stb_rect_pack.h; do ln -sfn "/usr/include/stb/$h" "$inc/$h"; done
# Eigen's SSE code path is compiled to WebAssembly SIMD by emscripten's SSE headers; Eigen also
# includes <mmintrin.h> (MMX), which emscripten does not have and Eigen's SSE code never uses.
printf '%s\n' '/* tokenscope web build: MMX has no WebAssembly form; Eigen only includes it. */' \
  '#pragma once' '#include <xmmintrin.h>' >"$inc/mmintrin.h"
echo "web-setup: ready ($deps)"
