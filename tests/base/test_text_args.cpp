// text_args.h: trimming and quoted arguments, hand-checked.
#include <doctest/doctest.h>

#include "base/text_args.h"

TEST_CASE("trim_space drops white space at both ends only") {
  CHECK(ts::trim_space("  a b \t\r\n") == "a b");
  CHECK(ts::trim_space("") == "");
  CHECK(ts::trim_space(" \n ") == "");
}

TEST_CASE("parse_quoted reads escapes and returns what follows") {
  std::string_view rest;
  auto r = ts::parse_quoted(R"("a \"b\"\n\\c"  tail )", rest);
  REQUIRE(r.ok());
  CHECK(r.value() == "a \"b\"\n\\c");
  CHECK(rest == "tail");
  auto bad = ts::parse_quoted("\"open", rest);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "missing closing quote");
}
