// The gate and the three handlers. A request that fails the gate never reaches a handler and
// its body is never read; the handlers only see GET /, GET /state and POST /guess with a small
// url-encoded body.
#include "poll/poll_routes.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <random>

#include "poll/poll_page.h"
#include "poll/student_text.h"

namespace ts {
namespace {

using httplib::Request;
using httplib::Response;
using HR = httplib::Server::HandlerResponse;

const char kFormType[] = "application/x-www-form-urlencoded";

bool wants_json(const Request& req) {
  return req.get_header_value("Accept").find("application/json") != std::string::npos;
}

void plain(Response& res, int status, const std::string& text) {
  res.status = status;
  res.set_content(text + "\n", "text/plain; charset=utf-8");
}

// The words of an answer httplib makes itself (its own table is not in the shared library's
// header).
const char* status_text(int status) {
  switch (status) {
    case 400:
      return "Bad request.";
    case 413:
      return "The request is too large.";
    case 414:
      return "The address is too long.";
    case 416:
      return "Bad range.";
    case 500:
      return "Something went wrong on the teacher's computer.";
    default:
      return "Refused.";
  }
}

uint64_t nonce_seed() {
  uint64_t seed = static_cast<uint64_t>(PollClock::now().time_since_epoch().count());
  try {
    std::random_device rd;
    seed ^= (static_cast<uint64_t>(rd()) << 32) ^ rd();
  } catch (...) {  // no entropy source: the clock alone
  }
  return seed;
}

std::string random_nonce() {
  thread_local std::mt19937_64 gen(nonce_seed());
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(gen()),
                static_cast<unsigned long long>(gen()));
  return buf;
}

bool four_digits(const std::string& s) {
  return s.size() == 4 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The one value of a form or query field; false when it is missing or given twice.
bool one_param(const Request& req, const char* key, std::string& out) {
  if (req.get_param_value_count(key) != 1) return false;
  out = req.get_param_value(key);
  return true;
}

// Whether a Host header names this server the way a student reaches it: an IP address (what the
// QR code and the board show), localhost or a .local name, with an optional port. A web page
// elsewhere that points its own name at this machine (DNS rebinding) sends its name: refused.
bool host_ok(const std::string& host) {
  if (host.empty()) return true;  // HTTP/1.0 without Host: no browser on a rebound name
  std::string h = host;
  if (h.front() == '[') {  // [IPv6]:port
    const size_t close = h.find(']');
    if (close == std::string::npos) return false;
    h = h.substr(1, close - 1);
    unsigned char buf[16];
    return inet_pton(AF_INET6, h.c_str(), buf) == 1;
  }
  if (const size_t colon = h.rfind(':'); colon != std::string::npos) h.resize(colon);
  unsigned char buf[4];
  if (inet_pton(AF_INET, h.c_str(), buf) == 1) return true;
  std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return std::tolower(c); });
  return h == "localhost" || (h.size() > 6 && h.compare(h.size() - 6, 6, ".local") == 0);
}

// A POST from a page of another origin (a site a student has open that posts into the class):
// browsers say where a POST comes from in Origin; ours is http:// and the Host it was sent to.
bool same_origin(const Request& req) {
  if (!req.has_header("Origin")) return true;  // not sent by older browsers; Host is checked
  return req.get_header_value("Origin") == "http://" + req.get_header_value("Host");
}

// Which methods each path takes ("" when the path is not ours).
const char* allowed_methods(const std::string& path) {
  if (path == "/" || path == "/state") return "GET, HEAD";
  if (path == "/guess") return "POST";
  return "";
}

}  // namespace

PollRoutes::PollRoutes(std::shared_ptr<PollState> state, const PollServerLimits& limits)
    : state_(std::move(state)),
      limits_(limits),
      per_client_(limits.per_client, limits.max_clients) {}

void PollRoutes::install(httplib::Server& s) {
  s.set_payload_max_length(limits_.max_body_bytes);
  // Referrer-Policy same-origin, not no-referrer: with no-referrer a browser sends "Origin: null"
  // on the page's own POSTs, and the Origin check could not tell them from another site's.
  s.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                         {"Cache-Control", "no-store"},
                         {"Referrer-Policy", "same-origin"},
                         {"X-Frame-Options", "DENY"}});
  s.set_pre_routing_handler([this](const Request& req, Response& res) { return gate(req, res); });
  s.Get("/", [this](const Request& req, Response& res) { page(req, res); });
  s.Get("/state", [this](const Request& req, Response& res) { state(req, res); });
  s.Post("/guess", [this](const Request& req, Response& res) { guess(req, res); });
  // Answers made by httplib itself (400 for a request it cannot parse, 413, 414) get a line of
  // text; every answer that is not the page gets a policy that allows nothing.
  s.set_error_handler(httplib::Server::HandlerWithResponse([this](const Request&, Response& res) {
    if (res.body.empty()) {  // an answer httplib made itself (one of ours always has a body)
      ++refused_;
      plain(res, res.status, status_text(res.status));
    }
    return HR::Handled;
  }));
  s.set_post_routing_handler([](const Request&, Response& res) {
    if (!res.has_header("Content-Security-Policy"))
      res.set_header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  });
}

void PollRoutes::add_counters(PollServerCounters& c) const {
  c.requests = requests_;
  c.rate_limited = rate_limited_;
  c.refused_requests = refused_;
  c.guesses_counted = counted_;
}

HR PollRoutes::gate(const Request& req, Response& res) {
  ++requests_;
  {
    std::lock_guard<std::mutex> lock(rate_mu_);
    if (per_client_.take(req.remote_addr, PollClock::now()) != BucketMap::Take::Ok) {
      ++rate_limited_;
      plain(res, 429, "Too many requests: wait a few seconds.");
      res.set_header("Retry-After", "2");
      return HR::Handled;
    }
  }
  const auto refuse = [&](int status, const std::string& text) {
    ++refused_;
    plain(res, status, text);
    return HR::Handled;
  };
  if (req.get_header_value_count("Host") > 1 || !host_ok(req.get_header_value("Host")))
    return refuse(403, "Use the address shown on the board.");
  const std::string allowed = allowed_methods(req.path);
  if (allowed.empty()) return refuse(404, "Not found.");
  const bool get_path = allowed != "POST";
  const bool method_ok =
      get_path ? (req.method == "GET" || req.method == "HEAD") : req.method == "POST";
  if (!method_ok) {
    res.set_header("Allow", allowed);
    return refuse(405, "Method not allowed.");
  }
  if (get_path) return HR::Unhandled;
  // POST /guess: from our own page, a small url-encoded body with its length given, not
  // compressed, not chunked.
  if (!same_origin(req)) return refuse(403, "Send guesses from the class page.");
  if (req.has_header("Transfer-Encoding")) return refuse(411, "Send the form with a length.");
  if (req.has_header("Content-Encoding")) return refuse(415, "Send the form uncompressed.");
  if (req.get_header_value_count("Content-Length") != 1)
    return refuse(411, "Send the form with a length.");
  const std::string len_text = req.get_header_value("Content-Length");
  uint64_t len = 0;
  const auto [end, ec] = std::from_chars(len_text.data(), len_text.data() + len_text.size(), len);
  if (ec != std::errc() || end != len_text.data() + len_text.size())
    return refuse(400, "Bad Content-Length.");
  if (len > limits_.max_body_bytes) return refuse(413, "The form is too large.");
  if (req.get_header_value("Content-Type") != kFormType)
    return refuse(415, "Send the form as application/x-www-form-urlencoded.");
  return HR::Unhandled;
}

void PollRoutes::page_with(PageView v, int status, Response& res) {
  v.max_name_chars = state_->limits().max_name_chars;
  v.max_guess_chars = state_->limits().max_guess_chars;
  res.status = status;
  res.set_content(render_poll_page(v), "text/html; charset=utf-8");
  res.set_header("Content-Security-Policy", page_security_policy(v.nonce));
}

void PollRoutes::page(const Request& req, Response& res) {
  PageView v;
  std::string code, name;
  if (one_param(req, "code", code) && four_digits(code)) v.code = code;
  if (one_param(req, "name", name) &&
      check_student_text(trim_spaces(name), state_->limits().max_name_chars) == TextProblem::None)
    v.name = std::string(trim_spaces(name));
  v.question = state_->question();
  v.nonce = random_nonce();
  page_with(v, 200, res);
}

void PollRoutes::state(const Request& req, Response& res) {
  std::string code;
  if (!one_param(req, "code", code)) {
    ++refused_;
    res.status = 400;
    res.set_content(error_json("Give the class code."), "application/json");
    return;
  }
  switch (state_->check_code(code, req.remote_addr, PollClock::now())) {
    case CodeCheck::Ok:
      res.set_content(state_json(state_->question()), "application/json");
      return;
    case CodeCheck::WrongCode:
      ++refused_;
      res.status = 403;
      res.set_content(error_json(guess_result_message(GuessResult::WrongCode)), "application/json");
      return;
    case CodeCheck::CodeLocked:
      ++rate_limited_;
      res.status = 429;
      res.set_content(error_json(guess_result_message(GuessResult::CodeLocked)),
                      "application/json");
      return;
  }
}

namespace {

int guess_status(GuessResult r) {
  switch (r) {
    case GuessResult::Accepted:
    case GuessResult::Replaced:
      return 200;
    case GuessResult::WrongCode:
      return 403;
    case GuessResult::NoQuestion:
    case GuessResult::ClassFull:
      return 409;
    case GuessResult::BadName:
    case GuessResult::BadGuess:
      return 400;
    case GuessResult::CodeLocked:
    case GuessResult::NameTooFast:
    case GuessResult::ClassTooFast:
      return 429;
  }
  return 400;
}

}  // namespace

void PollRoutes::guess(const Request& req, Response& res) {
  std::string code, name, text;
  GuessResult r = GuessResult::BadGuess;
  if (!one_param(req, "code", code)) {
    r = GuessResult::WrongCode;
  } else if (!one_param(req, "name", name)) {
    r = GuessResult::BadName;
  } else if (one_param(req, "guess", text)) {
    r = state_->submit(code, name, text, req.remote_addr, PollClock::now());
  }
  const int status = guess_status(r);
  if (guess_counted(r)) {
    ++counted_;
  } else if (status == 429) {
    ++rate_limited_;
  } else {
    ++refused_;
  }
  const PollQuestion q = state_->question();
  if (wants_json(req)) {
    res.status = status;
    res.set_content(guess_json(r, q), "application/json");
    return;
  }
  PageView v;  // without the script: the page again, with the answer and the fields kept
  if (four_digits(code)) v.code = code;
  const std::string_view shown = trim_spaces(name);
  if (check_student_text(shown, state_->limits().max_name_chars) == TextProblem::None)
    v.name = std::string(shown);
  v.question = q;
  v.message = guess_result_message(r);
  v.message_ok = guess_counted(r);
  v.nonce = random_nonce();
  page_with(v, status, res);
}

}  // namespace ts
