#!/usr/bin/env bash
# Installs the Debian packages tokenscope needs (build, tests, window tests), only those missing.
# Uses apt-get as root, or through sudo. Prints what it does; does nothing when all are present.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config libeigen3-dev doctest-dev libimgui-dev libglfw3-dev
      libcli11-dev nlohmann-json3-dev libutf8proc-dev libstb-dev libcpp-httplib-dev libqrencode-dev
      xvfb xauth libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core clang-14 libclang-rt-14-dev
      python3-jinja2 git)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#pkgs[@]} Debian packages already installed."
  exit 0
fi
echo "setup: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done."
