// The QR code of the poll's address, as a square of modules the app draws as rectangles
// (libqrencode: byte mode, error correction level M, the smallest version that fits). The quiet
// zone (4 light modules around it) is not included: the drawer leaves that margin.
#pragma once
#include <string_view>
#include <vector>

#include "base/error.h"

namespace ts {

struct QrMatrix {
  int size = 0;            // modules per side: 17 + 4 * version
  int version = 0;         // 1..40
  std::vector<bool> dark;  // (size, size) row-major: dark[y * size + x]
  bool at(int x, int y) const { return dark[static_cast<size_t>(y * size + x)]; }
};

Result<QrMatrix> qr_encode(std::string_view text);

}  // namespace ts
