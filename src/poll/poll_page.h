// What the poll's server sends back, as text: the students' page (one HTML file with its own
// CSS and a little script, nothing loaded from elsewhere; without the script it is a plain form
// that posts and gets this page back) and the small JSON answers the script reads. Every text a
// student sent goes through html_escape; the JSON holds server-made text only.
#pragma once
#include <string>
#include <string_view>

#include "poll/poll_state.h"

namespace ts {

struct PageView {
  std::string code;       // prefilled class code (4 digits, or empty)
  std::string name;       // prefilled name (checked text, or empty)
  PollQuestion question;  // open or waiting, drawn without the script too
  std::string message;    // the answer to a guess just sent (empty: none)
  bool message_ok = true;
  std::string nonce;           // the Content-Security-Policy nonce of the inline style and script
  size_t max_name_chars = 32;  // the fields' maxlength (PollLimits' numbers)
  size_t max_guess_chars = 40;
};

std::string render_poll_page(const PageView& v);
// The Content-Security-Policy header value for a page rendered with `nonce`.
std::string page_security_policy(std::string_view nonce);

// {"open":true,"step":12,"question":3}
std::string state_json(const PollQuestion& q);
// {"ok":false,"error":"..."} for the code checks and refusals, server-made text only.
std::string error_json(std::string_view message);
// {"ok":true|false,"counted":…,"message":"…","question":3}
std::string guess_json(GuessResult r, const PollQuestion& q);

// `s` percent-encoded for a URL's query (every byte but A-Z a-z 0-9 - . _ ~).
std::string url_encode(std::string_view s);

}  // namespace ts
