// The QR matrix read back by the rules of ISO/IEC 18004 (finder patterns, timing patterns, the
// dark module, the format information with its BCH check and level M), the address parser and
// the LAN address list.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "poll/lan_addresses.h"
#include "poll/listen_address.h"
#include "poll/qr_matrix.h"

using namespace ts;

namespace {

// A 7x7 finder pattern with its top-left module at (x, y): dark ring, light ring, dark 3x3.
bool finder_at(const QrMatrix& m, int x, int y) {
  for (int dy = 0; dy < 7; ++dy)
    for (int dx = 0; dx < 7; ++dx) {
      const int ring = std::max(std::abs(dx - 3), std::abs(dy - 3));  // 3 outer, 2 light, <2 core
      if (m.at(x + dx, y + dy) != (ring != 2)) return false;
    }
  return true;
}

// The 15 format bits of the copy beside the top-left finder, bit 0 first: column 8 downwards
// (rows 0-5, 7, 8), then row 8 leftwards (columns 7, 5, 4, 3, 2, 1, 0).
int format_bits_top_left(const QrMatrix& m) {
  const int rows[8] = {0, 1, 2, 3, 4, 5, 7, 8};
  const int cols[7] = {7, 5, 4, 3, 2, 1, 0};
  int v = 0;
  for (int i = 0; i < 8; ++i) v |= m.at(8, rows[i]) << i;
  for (int i = 0; i < 7; ++i) v |= m.at(cols[i], 8) << (8 + i);
  return v;
}

// The second copy: row 8 from the right edge leftwards (bits 0-7), column 8 from the bottom-left
// finder downwards (bits 8-14).
int format_bits_second(const QrMatrix& m) {
  int v = 0;
  for (int i = 0; i < 8; ++i) v |= m.at(m.size - 1 - i, 8) << i;
  for (int i = 0; i < 7; ++i) v |= m.at(8, m.size - 7 + i) << (8 + i);
  return v;
}

// The remainder of a 15-bit word divided by the format code's generator x^10+x^8+x^5+x^4+x^2+x+1.
int bch_remainder(int word) {
  for (int bit = 14; bit >= 10; --bit)
    if (word & (1 << bit)) word ^= 0x537 << (bit - 10);
  return word;
}

}  // namespace

TEST_CASE("QR matrix of a poll address: version, finder and timing patterns, format level M") {
  const std::string url = poll_url("192.168.100.200", 54321, "1234");
  REQUIRE(url == "http://192.168.100.200:54321/?code=1234");
  REQUIRE(url.size() == 39);
  Result<QrMatrix> qr = qr_encode(url);
  REQUIRE(qr.ok());
  const QrMatrix& m = qr.value();
  // 39 bytes in byte mode at level M: version 2 holds 26, version 3 holds 42.
  CHECK(m.version == 3);
  CHECK(m.size == 17 + 4 * m.version);
  REQUIRE(m.dark.size() == static_cast<size_t>(m.size * m.size));
  CHECK(finder_at(m, 0, 0));
  CHECK(finder_at(m, m.size - 7, 0));
  CHECK(finder_at(m, 0, m.size - 7));
  CHECK_FALSE(finder_at(m, m.size - 7, m.size - 7));  // no finder in the fourth corner
  for (int i = 0; i < 8; ++i) {                       // the light separators
    CHECK_FALSE(m.at(7, i));
    CHECK_FALSE(m.at(i, 7));
    CHECK_FALSE(m.at(m.size - 8, i));
    CHECK_FALSE(m.at(i, m.size - 8));
  }
  for (int i = 8; i < m.size - 8; ++i) {  // timing patterns: dark on even positions
    CHECK(m.at(i, 6) == (i % 2 == 0));
    CHECK(m.at(6, i) == (i % 2 == 0));
  }
  CHECK(m.at(8, m.size - 8));  // the dark module
  const int f1 = format_bits_top_left(m), f2 = format_bits_second(m);
  CHECK(f1 == f2);
  const int word = f1 ^ 0x5412;  // the fixed mask
  CHECK(bch_remainder(word) == 0);
  CHECK((word >> 13) == 0);  // level M is 00
  int dark = 0;
  for (const bool d : m.dark) dark += d;
  CHECK(dark > m.size * m.size / 4);  // masked data: neither empty nor solid
  CHECK(dark < m.size * m.size * 3 / 4);
}

TEST_CASE("QR matrix: longer text takes a larger version; too long or empty is an error") {
  Result<QrMatrix> a = qr_encode("http://10.0.0.1:8080/");
  Result<QrMatrix> b = qr_encode(std::string(200, 'x'));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->version == 2);  // 21 bytes: over version 1's 14 at level M
  CHECK(b->version > a->version);
  CHECK_FALSE(qr_encode("").ok());
  CHECK_FALSE(qr_encode(std::string(3000, 'x')).ok());  // version 40-M holds 2331 bytes
}

TEST_CASE("listen addresses: numeric IPv4 or bracketed IPv6 with a port, nothing looked up") {
  Result<ListenAddress> a = parse_listen_address("0.0.0.0:8080");
  REQUIRE(a.ok());
  CHECK(a->host == "0.0.0.0");
  CHECK(a->port == 8080);
  Result<ListenAddress> b = parse_listen_address("[::1]:0");
  REQUIRE(b.ok());
  CHECK(b->host == "::1");
  CHECK(b->port == 0);
  for (const char* bad :
       {"", "8080", "localhost:8080", "1.2.3.4", "1.2.3.4:", "1.2.3.4:65536", "1.2.3.4:-1",
        "1.2.3.4:80x", "::1:80", "[1.2.3.4]:80", "1.2.3:80", "example.com:80"})
    CHECK_FALSE_MESSAGE(parse_listen_address(bad).ok(), bad);
  CHECK(poll_url("::1", 80, "") == "http://[::1]:80/");
}

TEST_CASE("LAN addresses: only ones a student could reach are offered") {
  CHECK(offerable_ipv4("192.168.1.20"));
  CHECK(offerable_ipv4("10.0.0.5"));
  for (const char* no : {"127.0.0.1", "127.1.2.3", "0.0.0.0", "169.254.3.4", "224.0.0.1",
                         "255.255.255.255", "not an address", "1.2.3"})
    CHECK_FALSE_MESSAGE(offerable_ipv4(no), no);
  // This machine's list (it may be empty in a sandbox): every entry offerable, with its interface.
  for (const LanAddress& a : lan_ipv4_addresses()) {
    CHECK_MESSAGE(offerable_ipv4(a.address), a.address);
    CHECK_FALSE(a.interface.empty());
  }
}
