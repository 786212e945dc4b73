// GPT-2 pre-tokenizer and byte<->unicode mapping, on hand-checked inputs (what the GPT-2 regex
// gives for each, worked out by hand from its alternation order).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenize.h"

using namespace ts;

namespace {
std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> out;
  for (auto v : gpt2_pretokenize(s)) out.emplace_back(v);
  return out;
}
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("GPT-2 byte mapping: printable bytes keep their code point, the rest follow U+0100") {
  CHECK(gpt2_byte_to_cp('A') == 'A');
  CHECK(gpt2_byte_to_cp('!') == '!');
  CHECK(gpt2_byte_to_cp(0xA1) == 0xA1);
  CHECK(gpt2_byte_to_cp(0xAD) == 0x143);  // soft hyphen: the 68th and last remapped byte
  CHECK(gpt2_byte_to_cp(0x00) == 0x100);
  CHECK(gpt2_byte_to_cp(' ') == 0x120);   // "Ġ"
  CHECK(gpt2_byte_to_cp('\n') == 0x10A);  // "Ċ"
  CHECK(gpt2_byte_to_cp(0x7F) == 0x121);
  CHECK(gpt2_bytes_to_piece(" hello") == "\xC4\xA0hello");
  for (int b = 0; b < 256; ++b) CHECK(gpt2_cp_to_byte(gpt2_byte_to_cp(uint8_t(b))) == b);
  CHECK(gpt2_cp_to_byte(0x20) == -1);  // a raw space never appears in a stored piece
  CHECK(gpt2_cp_to_byte(0x144) == -1);
  std::string raw;
  CHECK(gpt2_piece_to_bytes("\xC4\xA0world\xC4\x8A", raw));
  CHECK(raw == " world\n");
  CHECK_FALSE(gpt2_piece_to_bytes("\xE6\x97\xA5", raw));  // 日 is not a mapped byte
}

TEST_CASE("GPT-2 pre-tokenizer: words, spaces, contractions") {
  CHECK(split("Hello world") == V{"Hello", " world"});
  CHECK(split("I'm sure they'll've done it") ==
        V{"I", "'m", " sure", " they", "'ll", "'ve", " done", " it"});
  CHECK(split("'S 'x x'") == V{"'", "S", " '", "x", " x", "'"});  // contractions are lower case
  CHECK(split("''s") == V{"''", "s"});
  CHECK(split("  Hello") == V{" ", " Hello"});
  CHECK(split("hello   ") == V{"hello", "   "});
  CHECK(split("a  \n b") == V{"a", "  \n", " b"});
  CHECK(split("\t\tx") == V{"\t", "\t", "x"});
  CHECK(split("\n") == V{"\n"});
  CHECK(split(" ") == V{" "});
  CHECK(split("") == V{});
}

TEST_CASE("GPT-2 pre-tokenizer: numbers, punctuation, other scripts") {
  CHECK(split("w048 7tuijk dsdfhu") == V{"w", "048", " 7", "tuijk", " dsdfhu"});
  CHECK(split(" 42!?") == V{" 42", "!?"});
  CHECK(split("a...b ...") == V{"a", "...", "b", " ..."});
  CHECK(split("3\xC2\xBD") == V{"3\xC2\xBD"});               // ½ is a number (No)
  CHECK(split("F\xC3\xBChrer") == V{"F\xC3\xBChrer"});        // ü is a letter
  CHECK(split("\xE6\x97\xA5\xE6\x9C\xAC") == V{"\xE6\x97\xA5\xE6\x9C\xAC"});
  CHECK(split("\xF0\x9F\xA6\x99x") == V{"\xF0\x9F\xA6\x99", "x"});  // 🦙 is a symbol
  CHECK(split("a\xC2\xA0" "b") == V{"a", "\xC2\xA0", "b"});   // NBSP is White_Space
  CHECK(split("a\xE3\x80\x80  b") == V{"a", "\xE3\x80\x80 ", " b"});  // ideographic space
}

TEST_CASE("GPT-2 pre-tokenizer: invalid UTF-8 and NUL are 'other' characters, nothing is lost") {
  CHECK(split(std::string("a\xFF" "b")) == V{"a", "\xFF", "b"});
  CHECK(split(std::string(" \xFF\xFE")) == V{" \xFF\xFE"});
  CHECK(split(std::string("x\0y", 3)) == V{"x", std::string("\0", 1), "y"});
  CHECK(split("\xE2\x82") == V{"\xE2\x82"});  // truncated sequence: two "other" bytes
  std::string all;
  for (int b = 0; b < 256; ++b) all += char(b);
  std::string joined;
  for (const auto& p : split(all + all)) joined += p;
  CHECK(joined == all + all);
}

namespace {
std::vector<std::string> split_as(PreTokenizer p, std::string_view s) {
  std::vector<std::string> out;
  for (auto v : pretokenize(p, s)) out.emplace_back(v);
  return out;
}
}  // namespace

TEST_CASE("LLaMA-3 pre-tokenizer: hand-worked cases of its regex") {
  const auto L = PreTokenizer::Llama3;
  CHECK(split_as(L, "Hello world") == V{"Hello", " world"});
  CHECK(split_as(L, "I'M HERE'S don't") == V{"I", "'M", " HERE", "'S", " don", "'t"});
  CHECK(split_as(L, "12345 678") == V{"123", "45", " ", "678"});
  CHECK(split_as(L, "(word \tword") == V{"(word", " ", "\tword"});
  CHECK(split_as(L, "\nword") == V{"\n", "word"});
  CHECK(split_as(L, "x.\n\ny") == V{"x", ".\n\n", "y"});
  CHECK(split_as(L, "a\n\n  b") == V{"a", "\n\n", " ", " b"});
  CHECK(split_as(L, "a  \n b") == V{"a", "  \n", " b"});
  CHECK(split_as(L, "hi  ") == V{"hi", "  "});
  CHECK(split_as(L, " ...!") == V{" ...!"});
  CHECK(split_as(L, "\r\n") == V{"\r\n"});
  CHECK(split_as(L, "3\xC2\xBD") == V{"3\xC2\xBD"});  // two numbers
  CHECK(split_as(L, "\xFF" "abc") == V{"\xFF" "abc"});  // an invalid byte is "other"
  const std::string mixed = "It's 2024!\n\n  Done\t\t(ok) \xF0\x9F\xA6\x99\xFF";
  std::string joined;
  for (const auto& p : split_as(L, mixed)) joined += p;
  CHECK(joined == mixed);
}

TEST_CASE("Qwen2 pre-tokenizer: like LLaMA-3 but one digit per pre-token") {
  CHECK(split_as(PreTokenizer::Qwen2, "12345 678") == V{"1", "2", "3", "4", "5", " ", "6", "7", "8"});
  CHECK(split_as(PreTokenizer::Qwen2, "a1b") == V{"a", "1", "b"});
}

TEST_CASE("SmolLM pre-tokenizer: digits alone, GPT-2 between them") {
  const auto S = PreTokenizer::Smollm;
  CHECK(split_as(S, "12345 678") == V{"1", "2", "3", "4", "5", " ", "6", "7", "8"});
  CHECK(split_as(S, "a1b") == V{"a", "1", "b"});
  // GPT-2 keeps the space with the number (" 12"); here the digits split off first.
  CHECK(split_as(PreTokenizer::Gpt2, "in 2024") == V{"in", " 2024"});
  CHECK(split_as(S, "in 2024") == V{"in", " ", "2", "0", "2", "4"});
  // The whitespace look-ahead stops at the digit: the run stays whole before a digit.
  CHECK(split_as(PreTokenizer::Gpt2, "x  1") == V{"x", " ", " 1"});
  CHECK(split_as(S, "x  1") == V{"x", "  ", "1"});
  CHECK(split_as(S, "x  y") == V{"x", " ", " y"});  // as GPT-2 without digits
  // GPT-2's rules otherwise: contractions (case-sensitive), " ?\p{L}+", other runs.
  CHECK(split_as(S, "It's 3 o'clock!!") ==
        V{"It", "'s", " ", "3", " o", "'", "clock", "!!"});
  CHECK(split_as(S, "DON'T") == V{"DON", "'", "T"});
  CHECK(split_as(S, "\xD9\xA3" "x") == V{"\xD9\xA3", "x"});  // Arabic-Indic three is \p{N}
  const std::string mixed = "It's 2024!\n\n  Done\t\t(ok) 7 \xF0\x9F\xA6\x99\xFF" "9";
  std::string joined;
  for (const auto& p : split_as(S, mixed)) joined += p;
  CHECK(joined == mixed);
}

TEST_CASE("pre-tokenizer names") {
  PreTokenizer p = PreTokenizer::Qwen2;
  CHECK(pre_tokenizer_from_name("gpt2", p));
  CHECK(p == PreTokenizer::Gpt2);
  CHECK(pre_tokenizer_from_name("default", p));
  CHECK(p == PreTokenizer::Gpt2);
  CHECK(pre_tokenizer_from_name("llama-bpe", p));
  CHECK(p == PreTokenizer::Llama3);
  CHECK(pre_tokenizer_from_name("qwen2", p));
  CHECK(p == PreTokenizer::Qwen2);
  CHECK(pre_tokenizer_from_name("smollm", p));
  CHECK(p == PreTokenizer::Smollm);
  CHECK_FALSE(pre_tokenizer_from_name("tekken", p));
}
