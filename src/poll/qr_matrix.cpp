// libqrencode's matrix copied out: bit 0 of each byte is the module's colour (1 = dark).
#include "poll/qr_matrix.h"

#include <qrencode.h>

#include <memory>
#include <string>

namespace ts {

Result<QrMatrix> qr_encode(std::string_view text) {
  if (text.empty()) return make_error("QR code: nothing to encode");
  if (text.size() > 4096) return make_error("QR code: the text is longer than any QR code holds");
  const std::string s(text);  // QRcode_encodeData takes a pointer and a length (NULs allowed)
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeData(static_cast<int>(s.size()),
                        reinterpret_cast<const unsigned char*>(s.data()), 0, QR_ECLEVEL_M),
      &QRcode_free);
  if (!code)
    return make_error("QR code: cannot encode " + std::to_string(s.size()) +
                      " bytes (too long for a QR code at level M?)");
  QrMatrix m;
  m.size = code->width;
  m.version = code->version;
  m.dark.resize(static_cast<size_t>(m.size) * static_cast<size_t>(m.size));
  for (size_t i = 0; i < m.dark.size(); ++i) m.dark[i] = (code->data[i] & 1) != 0;
  return m;
}

}  // namespace ts
