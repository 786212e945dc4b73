// Lesson parser: front matter, "## " pages, narration, and the fenced do/expect/ask blocks.
// Syntax of each action and check is verified here (lesson_syntax), not its meaning.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/read_file.h"
#include "base/utf8.h"
#include "lesson/lesson.h"
#include "lesson/lesson_syntax.h"

namespace ts {

namespace {

// The message quotes the file's text: shown as valid UTF-8 on one line (a stray carriage return
// or other control byte is written as \xNN, a cut multi-byte character as <0xNN>).
Error at(const std::string& path, int line, const std::string& msg) {
  std::string shown;
  for (char c : utf8_sanitize(msg)) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
      shown += buf;
    } else {
      shown += c;
    }
  }
  return make_error(path + ":" + std::to_string(line) + ": " + shown);
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// Front matter between two "---" lines at the top (after blank lines): 'key: value' lines,
// blank and '#' lines skipped. `i` ends on the first line after it (or where it started).
Status read_front_matter(const std::vector<std::string>& lines, size_t& i, const std::string& path,
                         Lesson& lesson) {
  while (i < lines.size() && lesson_trim(lines[i]).empty()) ++i;
  if (i >= lines.size() || lesson_trim(lines[i]) != "---") return ok_status();
  const int open_line = static_cast<int>(i) + 1;
  for (++i; i < lines.size(); ++i) {
    const std::string l = lesson_trim(lines[i]);
    if (l == "---") {
      ++i;
      return ok_status();
    }
    if (l.empty() || l[0] == '#') continue;
    const size_t colon = l.find(':');
    if (colon == std::string::npos)
      return at(path, static_cast<int>(i) + 1,
                "front matter lines are 'key: value', got '" + l + "'");
    lesson.meta[lesson_trim(l.substr(0, colon))] = lesson_trim(l.substr(colon + 1));
  }
  return at(path, open_line, "front matter opened with '---' is never closed");
}

// One line inside a ```do, ```reveal, ```see or ```expect block, checked and kept on the page.
Status read_block_line(const std::string& kind, const std::string& b, int bl,
                       const std::string& path, LessonPage& page) {
  if (kind == "do" || kind == "reveal") {
    auto a = parse_action_syntax(b);
    if (!a.ok()) return at(path, bl, a.error().message);
    LessonLine ll = a.value();
    ll.line = bl;
    (kind == "do" ? page.actions : page.reveal_actions).push_back(ll);
  } else if (kind == "see") {
    auto sl = parse_see_syntax(b);
    if (!sl.ok()) return at(path, bl, sl.error().message);
    SeeLine see = sl.value();
    see.line = bl;
    page.sees.push_back(see);
  } else {
    auto c = parse_check_syntax(b);
    if (!c.ok()) return at(path, bl, c.error().message);
    page.checks.push_back(LessonLine{"expect", b, bl, {}});
  }
  return ok_status();
}

// A fenced block opened at lines[i] with ```KIND: its lines up to the closing ``` (an ask
// block's text kept as written, the others line by line). `i` ends on the closing line.
Status read_block(const std::vector<std::string>& lines, size_t& i, const std::string& kind,
                  const std::string& path, LessonPage* page) {
  const int line_no = static_cast<int>(i) + 1;
  if (kind != "do" && kind != "expect" && kind != "ask" && kind != "see" && kind != "reveal")
    return at(
        path, line_no,
        "unknown block '```" + kind + "' (use ```do, ```expect, ```ask, ```reveal or ```see)");
  if (!page) return at(path, line_no, "a ```" + kind + " block before the first '## ' page");
  bool closed = false;
  std::string ask;
  for (++i; i < lines.size(); ++i) {
    const std::string b = lesson_trim(lines[i]);
    if (b == "```") {
      closed = true;
      break;
    }
    if (kind == "ask") {
      ask += (ask.empty() ? "" : "\n") + b;
    } else if (!b.empty() && b[0] != '#') {
      TS_TRY(read_block_line(kind, b, static_cast<int>(i) + 1, path, *page));
    }
  }
  if (!closed) return at(path, line_no, "```" + kind + " block is never closed with ```");
  if (kind == "ask") page->ask = lesson_trim(ask);
  if (kind == "reveal" && page->ask.empty())
    return at(path, line_no, "a ```reveal block needs the page's ```ask block before it");
  return ok_status();
}

// "- ", "* " or "12. " at the start: a list item, which starts a line of its own.
bool list_item(const std::string& l) {
  if (l.rfind("- ", 0) == 0 || l.rfind("* ", 0) == 0) return true;
  const size_t dot = l.find(". ");
  return l.size() > 2 && std::isdigit(static_cast<unsigned char>(l[0])) &&
         dot != std::string::npos &&
         std::all_of(l.begin(), l.begin() + static_cast<long>(dot),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A narration line on the page: a blank line ends a paragraph, a list item starts a line, any
// other line joins the paragraph.
void add_narration(const std::string& l, LessonPage& page, bool& paragraph_gap) {
  if (l.empty()) {
    if (!page.text.empty()) paragraph_gap = true;
    return;
  }
  const char* join = page.text.empty() ? "" : paragraph_gap ? "\n\n" : list_item(l) ? "\n" : " ";
  page.text += join + l;
  paragraph_gap = false;
}

}  // namespace

Result<Lesson> parse_lesson(std::string_view text, const std::string& path) {
  if (!utf8_valid(text)) return at(path, 1, "the file is not valid UTF-8");
  Lesson lesson;
  lesson.path = path;
  const std::vector<std::string> lines = split_lines(text);
  size_t i = 0;
  TS_TRY(read_front_matter(lines, i, path, lesson));
  if (lesson.meta.count("title")) lesson.title = lesson.meta["title"];
  LessonPage* page = nullptr;
  bool paragraph_gap = false;
  for (; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    const std::string l = lesson_trim(lines[i]);
    if (l.rfind("# ", 0) == 0 && lesson.title.empty()) {
      lesson.title = lesson_trim(l.substr(2));
    } else if (l.rfind("## ", 0) == 0) {
      lesson.pages.push_back(LessonPage{});
      page = &lesson.pages.back();
      page->title = lesson_trim(l.substr(3));
      page->line = line_no;
    } else if (l.rfind("```", 0) == 0) {
      TS_TRY(read_block(lines, i, lesson_trim(l.substr(3)), path, page));
    } else if (page) {
      add_narration(l, *page, paragraph_gap);
    } else if (!l.empty()) {
      return at(path, line_no,
                "text before the first '## ' page heading: '" + l.substr(0, 40) + "'");
    }
  }
  if (lesson.pages.empty()) return at(path, 1, "a lesson needs at least one '## ' page");
  if (lesson.title.empty()) return at(path, 1, "a lesson needs a title (front matter 'title:')");
  return lesson;
}

Result<Lesson> load_lesson(const std::string& path) {
  // Regular files only (never /dev/zero or a pipe), 4 MiB at most.
  Result<std::string> text = read_regular_file(path, uint64_t{4} << 20, "lesson file");
  if (!text.ok()) return text.error();
  return parse_lesson(text.value(), path);
}

}  // namespace ts
