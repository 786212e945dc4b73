// The poll server on loopback (127.0.0.0/8 only): what it serves, what it refuses and how, a
// class of 30 posting at once, floods, slow and silent clients, connection caps, a clean stop.
// Every simulated student or attacker sends from its own 127.x address. Each test bounds its
// own requests in count and time.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <latch>
#include <set>
#include <thread>
#include <vector>

#include "http_probe.h"
#include "poll/poll_server.h"

using namespace ts;
using namespace ts::test;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Running {
  std::shared_ptr<PollState> state;
  std::unique_ptr<PollServer> server;
  int port() const { return server->port(); }
};

Running start_poll(PollServerLimits limits = {}, PollLimits poll = {}) {
  Running r;
  r.state = std::make_shared<PollState>(poll);
  REQUIRE(r.state->set_code("4711").ok());
  Result<std::unique_ptr<PollServer>> s = PollServer::start({"127.0.0.1", 0}, r.state, limits);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  r.server = std::move(s).value();
  REQUIRE(r.server->port() > 0);
  return r;
}

// Threads of this process now (a sanitizer's runtime starts its own helper with the first
// thread: one thread is started and joined first, so that helper is counted before and after).
int thread_count() {
  static const bool warmed = [] {
    std::thread([] {}).join();
    return true;
  }();
  (void)warmed;
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

// Waits (at most 5 s) until the server has admitted `n` connections in all.
void wait_admitted(const PollServer& s, uint64_t n) {
  const auto until = Clock::now() + 5s;
  while (s.counters().connections < n && Clock::now() < until) std::this_thread::sleep_for(2ms);
  REQUIRE(s.counters().connections >= n);
}

std::string guess_body(const std::string& name, const std::string& guess,
                       const std::string& code = "4711") {
  return "code=" + code + "&name=" + name + "&guess=" + guess;
}

double median_ms(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

TEST_CASE("poll server: the page, the state and a guess; a clean stop leaves no thread") {
  const int threads_before = thread_count();
  Running p = start_poll();
  CHECK(thread_count() > threads_before);

  Reply page = exchange(p.port(), get_request("/?code=4711"));
  CHECK(page.status == 200);
  CHECK(page.has_header("Content-Type: text/html; charset=utf-8"));
  CHECK(page.has_header("X-Content-Type-Options: nosniff"));
  CHECK(page.body.find("Guess the next token") != std::string::npos);
  CHECK(page.body.find("value=\"4711\"") != std::string::npos);
  const size_t at = page.head.find("'nonce-");
  REQUIRE(at != std::string::npos);
  const std::string nonce = page.head.substr(at + 7, 32);
  CHECK(page.body.find("<script nonce=\"" + nonce + "\">") != std::string::npos);

  Reply st = exchange(p.port(), get_request("/state?code=4711"));
  CHECK(st.status == 200);
  CHECK(st.body == R"({"open":false,"question":0,"step":-1})");
  p.state->open_question(5);
  st = exchange(p.port(), get_request("/state?code=4711"));
  CHECK(st.body == R"({"open":true,"question":1,"step":5})");

  Reply g = exchange(p.port(), form_request(guess_body("Ana", "dog"), true,
                                            "Origin: http://127.0.0.1\r\n"));  // our own page
  CHECK(g.status == 200);
  CHECK(g.body.find("\"ok\":true") != std::string::npos);
  Reply html = exchange(p.port(), form_request(guess_body("Ana", "%20cat"), /*json=*/false));
  CHECK(html.status == 200);
  CHECK(html.has_header("text/html"));
  CHECK(html.body.find("Your new guess replaces your earlier one") != std::string::npos);
  CHECK(html.body.find("value=\"Ana\"") != std::string::npos);  // the form keeps the name
  const PollSnapshot snap = p.state->snapshot();
  REQUIRE(snap.guesses.size() == 1);
  CHECK(snap.guesses[0].text == " cat");

  CHECK(exchange(p.port(), get_request("/", "", "192.168.1.20:8080")).status ==
        200);  // the address on the board
  CHECK(exchange(p.port(), get_request("/", "", "[::1]:8080")).status == 200);
  Reply head =
      exchange(p.port(), "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  CHECK(head.status == 200);
  CHECK(head.body.empty());

  const int port = p.port();
  CHECK(p.server->running());
  p.server->stop();
  CHECK_FALSE(p.server->running());
  p.server->stop();  // twice is fine
  CHECK(thread_count() == threads_before);
  CHECK(connect_from(port) < 0);  // nobody listens any more
}

TEST_CASE("poll server: hostile requests get 4xx and change nothing") {
  PollServerLimits lim;
  lim.per_client = {1000, 1000};  // this test sends many requests from one address
  Running p = start_poll(lim);
  p.state->open_question(1);
  struct Case {
    std::string request;
    int status;
    std::string what;
  };
  const std::string big(10000, 'a');
  const std::vector<Case> cases = {
      {get_request("/index.html"), 404, "a file"},
      {get_request("/../../etc/passwd"), 404, "a path outside"},
      {get_request("/%2e%2e/%2e%2e/etc/passwd"), 404, "an encoded path outside"},
      {get_request("/guess/"), 404, "a near miss"},
      {get_request("/state/../guess"), 404, "dots inside"},
      {"POST / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
       405, "POST /"},
      {get_request("/guess"), 405, "GET /guess"},
      {"PUT /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 0\r\nConnection: "
       "close\r\n\r\n",
       405, "PUT"},
      {"DELETE /state HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n", 405,
       "DELETE"},
      {"OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n", 405, "OPTIONS"},
      {"BREW / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n", 400,
       "an unknown method"},
      {"GET /\r\n\r\n", 400, "not HTTP/1.x"},
      {get_request("/" + std::string(9000, 'a')), 414, "a long request line"},
      {"POST /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: "
       "application/x-www-form-urlencoded\r\n"
       "Content-Length: 5000\r\nConnection: close\r\n\r\n",
       413, "a body over 4 KB, announced"},
      {form_request("code=4711&name=Ana&guess=" + big), 413, "a body over 4 KB, sent"},
      {"POST /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: "
       "application/x-www-form-urlencoded\r\n"
       "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\ncode=\r\n0\r\n\r\n",
       411, "chunked"},
      {form_request(guess_body("Ana", "x"), true, "Content-Encoding: gzip\r\n"), 415, "compressed"},
      {"POST /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: multipart/form-data; "
       "boundary=b\r\n"
       "Content-Length: 4\r\nConnection: close\r\n\r\n--b-",
       415, "multipart"},
      {"POST /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: "
       "application/json\r\nContent-Length: 2\r\n"
       "Connection: close\r\n\r\n{}",
       415, "JSON"},
      {"POST /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: "
       "application/x-www-form-urlencoded\r\n"
       "Content-Length: -1\r\nConnection: close\r\n\r\n",
       400, "a negative length"},
      {"POST /guess HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: "
       "application/x-www-form-urlencoded\r\n"
       "Connection: close\r\n\r\n",
       411, "no length"},
      {form_request(guess_body("Ana", "dog", "1234")), 403, "a wrong code"},
      {form_request("name=Ana&guess=dog"), 403, "no code"},
      {form_request(guess_body("Ana", "dog") + "&code=1234"), 403, "two codes"},
      {form_request(guess_body("%FF%FE", "dog")), 400, "a name in invalid UTF-8"},
      {form_request(guess_body("Ana", "d%C0%AFg")), 400, "a guess in invalid UTF-8"},
      {form_request(guess_body("An%0Aa", "dog")), 400, "a newline in a name"},
      {form_request(guess_body("Ana", "d%00g")), 400, "a NUL in a guess"},
      {form_request(guess_body("Ana", "%1B%5B2J")), 400, "a terminal escape"},
      {form_request(guess_body("%E2%80%AEanA", "dog")), 400, "a right-to-left override"},
      {form_request(guess_body(std::string(33, 'n'), "dog")), 400, "a 33-character name"},
      {form_request(guess_body("Ana", std::string(41, 'g'))), 400, "a 41-character guess"},
      {form_request(guess_body("Ana", "")), 400, "an empty guess"},
      {form_request("code=4711&guess=dog"), 400, "no name"},
      {get_request("/", "", "evil.example"), 403, "a rebound name in Host"},
      {"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.2\r\nConnection: close\r\n\r\n", 403,
       "two Hosts"},
      {form_request(guess_body("Ana", "dog"), true, "Origin: http://evil.example\r\n"), 403,
       "a POST from another site"},
      {form_request(guess_body("Ana", "dog"), true, "Origin: null\r\n"), 403,
       "a POST from a sandboxed page"},
  };
  for (const Case& c : cases) {
    const Reply r = exchange(p.port(), c.request);
    CHECK_MESSAGE(r.status == c.status, c.what);
    CHECK_MESSAGE(r.has_header("Connection: close"), c.what);
  }
  const Reply not_allowed = exchange(p.port(), get_request("/guess"));
  CHECK(not_allowed.has_header("Allow: POST"));
  // Headers past the connection's byte budget: cut off, never a 200.
  std::string huge = "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n";
  for (int i = 0; i < 400; ++i)
    huge += "X-Pad-" + std::to_string(i) + ": " + std::string(60, 'x') + "\r\n";
  const Reply over = exchange(p.port(), huge + "\r\n");
  CHECK(over.status != 200);
  CHECK(p.server->counters().over_budget >= 1);

  CHECK(p.state->snapshot().guesses.empty());
  CHECK(p.server->counters().guesses_counted == 0);
  CHECK(p.server->counters().refused_requests >= cases.size());
}

TEST_CASE("poll server: what a student sends comes back only as escaped text") {
  Running p = start_poll();
  p.state->open_question(1);
  const Reply r = exchange(
      p.port(),
      form_request(guess_body("%3Cb%3EAna%3C%2Fb%3E", "%22%3E%3Cscript%3Ex()%3C%2Fscript%3E"),
                   /*json=*/false));
  CHECK(r.status == 200);  // odd but valid text: counted, and kept exactly
  CHECK(r.body.find("value=\"&lt;b&gt;Ana&lt;/b&gt;\"") != std::string::npos);
  CHECK(r.body.find("<b>Ana") == std::string::npos);
  CHECK(r.body.find("<script>x()") == std::string::npos);
  CHECK(r.body.find("x()") == std::string::npos);  // the guess itself is not echoed at all
  const PollSnapshot s = p.state->snapshot();
  REQUIRE(s.guesses.size() == 1);
  CHECK(s.guesses[0].name == "<b>Ana</b>");
  CHECK(s.guesses[0].text == "\"><script>x()</script>");
  const Reply j = exchange(p.port(), form_request(guess_body("Ben", "%3Cscript%3E")));
  CHECK(j.body.find("<script>") == std::string::npos);
  const Reply page = exchange(p.port(), get_request("/?code=12%2234&name=%3Cscript%3E"));
  CHECK(page.status == 200);
  CHECK(page.body.find("value=\"&lt;script&gt;\"") != std::string::npos);
  CHECK(page.body.find("value=\"12") == std::string::npos);  // a code that is not 4 digits: dropped
}

TEST_CASE("poll server: wrong codes lock out one client address, not the class") {
  Running p = start_poll();
  p.state->open_question(1);
  for (int i = 0; i < 5; ++i)
    CHECK(exchange(p.port(), form_request(guess_body("Eve", "x", "000" + std::to_string(i))),
                   "127.0.0.5")
              .status == 403);
  CHECK(exchange(p.port(), form_request(guess_body("Eve", "x")), "127.0.0.5").status == 429);
  CHECK(exchange(p.port(), get_request("/state?code=4711"), "127.0.0.5").status == 429);
  CHECK(exchange(p.port(), form_request(guess_body("Ana", "x")), "127.0.0.6").status == 200);
}

TEST_CASE("poll server: 30 students posting at once are each counted once") {
  Running p = start_poll();
  p.state->open_question(7);
  constexpr int kStudents = 30;
  std::vector<Reply> first(kStudents), second(kStudents);
  std::latch go(kStudents);
  std::vector<std::thread> class_;
  for (int i = 0; i < kStudents; ++i)
    class_.emplace_back([&, i] {
      const std::string from = "127.0.1." + std::to_string(i + 1);
      const std::string name = "student" + std::to_string(i);
      go.arrive_and_wait();
      first[i] =
          exchange(p.port(), form_request(guess_body(name, "w" + std::to_string(i % 5))), from);
      if (i % 3 == 0)  // a third change their mind
        second[i] =
            exchange(p.port(), form_request(guess_body(name, "z" + std::to_string(i))), from);
    });
  for (std::thread& t : class_) t.join();
  int changed = 0;
  for (int i = 0; i < kStudents; ++i) {
    CHECK(first[i].status == 200);
    if (i % 3 == 0) {
      CHECK(second[i].status == 200);
      ++changed;
    }
  }
  const PollSnapshot s = p.state->snapshot();
  REQUIRE(s.guesses.size() == kStudents);
  std::set<std::string> names;
  for (const PollGuess& g : s.guesses) {
    names.insert(g.name);
    const int i = std::stoi(g.name.substr(7));
    CHECK(g.text == (i % 3 == 0 ? "z" + std::to_string(i) : "w" + std::to_string(i % 5)));
  }
  CHECK(names.size() == kStudents);
  CHECK(p.server->counters().guesses_counted == static_cast<uint64_t>(kStudents + changed));
}

TEST_CASE("poll server: floods meet the per-name, per-client and class-size limits") {
  PollServerLimits lim;
  lim.per_client = {20, 0.01};  // 20 requests, then (for this test) practically none
  PollLimits poll;
  poll.per_name = {3, 0.01};
  poll.max_names = 5;
  Running p = start_poll(lim, poll);
  p.state->open_question(1);
  int ok = 0, limited = 0;
  for (int i = 0; i < 10; ++i) {
    const int s =
        exchange(p.port(), form_request(guess_body("Ana", "g" + std::to_string(i))), "127.0.0.7")
            .status;
    ok += s == 200;
    limited += s == 429;
  }
  CHECK(ok == 3);  // one name: 3 guesses, then refused
  CHECK(limited == 7);
  for (int i = 0; i < 15; ++i) {  // the same client goes on: its 20 requests run out
    const int s = exchange(p.port(), get_request("/state?code=4711"), "127.0.0.7").status;
    if (i < 10) CHECK(s == 200);
    if (i >= 10) CHECK(s == 429);
  }
  for (int i = 0; i < 6; ++i) {  // six names from six phones: the sixth is one too many
    const int s = exchange(p.port(), form_request(guess_body("n" + std::to_string(i), "x")),
                           "127.0.2." + std::to_string(i + 1))
                      .status;
    CHECK(s == (i < 4 ? 200 : 409));  // Ana is the first of the five
  }
  CHECK(p.state->snapshot().guesses.size() == 5);
}

TEST_CASE("poll server: slow and silent clients are cut off by the deadline") {
  PollServerLimits lim;
  lim.deadline = 1000ms;
  lim.idle = 500ms;
  Running p = start_poll(lim);
  // Silent: connects and sends nothing.
  const int quiet = connect_from(p.port(), "127.0.0.8");
  REQUIRE(quiet >= 0);
  const Reply q = read_reply(quiet, 20s);
  close(quiet);
  CHECK(q.closed);
  CHECK(q.status == 0);
  // Slow: a header line a byte every 100 ms (each byte inside the silence limit), for up to 60 s.
  const int slow = connect_from(p.port(), "127.0.0.9");
  REQUIRE(slow >= 0);
  REQUIRE(send_all(slow, "GET / HTTP/1.1\r\nX-Slow: "));
  bool cut = false;
  for (int i = 0; i < 600 && !cut; ++i) {
    std::this_thread::sleep_for(100ms);
    char c;
    const ssize_t n = recv(slow, &c, 1, MSG_DONTWAIT);
    cut = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || !send_all(slow, "x");
    CHECK(n <= 0);  // never an answer
  }
  close(slow);
  CHECK(cut);
  CHECK(p.server->counters().timed_out >= 2);
  CHECK(exchange(p.port(), get_request("/"), "127.0.0.10").status == 200);  // others still served
}

TEST_CASE("poll server: connection caps per client and in all; refused at once, served after") {
  PollServerLimits lim;
  lim.workers = 2;
  lim.max_connections = 6;
  lim.max_per_client = 3;
  lim.deadline = 20s;  // the idle connections below stay until the test closes them
  lim.idle = 20s;
  Running p = start_poll(lim);
  std::vector<int> idle;
  for (int i = 0; i < 3; ++i) idle.push_back(connect_from(p.port(), "127.0.0.30"));
  wait_admitted(*p.server, 3);
  const Reply same_client = exchange(p.port(), get_request("/"), "127.0.0.30");
  CHECK(same_client.status == 503);
  for (int i = 0; i < 3; ++i) idle.push_back(connect_from(p.port(), "127.0.0.31"));
  wait_admitted(*p.server, 6);
  const Reply anyone = exchange(p.port(), get_request("/"), "127.0.0.32");
  CHECK(anyone.status == 503);
  CHECK(p.server->counters().refused_connections == 2);
  for (const int s : idle) {  // the admitted ones are still open, still unanswered
    char c;
    CHECK(recv(s, &c, 1, MSG_DONTWAIT) < 0);
    CHECK((errno == EAGAIN || errno == EWOULDBLOCK));
  }
  for (const int s : idle) close(s);
  int status = 0;
  for (int i = 0; i < 100 && status != 200; ++i) {  // the server notices the closes
    status = exchange(p.port(), get_request("/"), "127.0.0.32").status;
    if (status != 200) std::this_thread::sleep_for(20ms);
  }
  CHECK(status == 200);
}

TEST_CASE("poll server: under a flood from eight addresses another client is still answered") {
  Running p = start_poll();
  p.state->open_question(1);
  // Each probe run from its own address: 40 requests stay inside one address's request rate.
  const auto probe = [&](std::vector<double>& ms, int& ok, const std::string& from) {
    for (int i = 0; i < 40; ++i) {
      const auto t = Clock::now();
      ok += exchange(p.port(), get_request("/state?code=4711"), from).status == 200;
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
      std::this_thread::sleep_for(20ms);  // a phone asks now and then, not in a loop
    }
  };
  std::vector<double> quiet_ms, flood_ms;
  int quiet_ok = 0, flood_ok = 0;
  probe(quiet_ms, quiet_ok, "127.0.0.2");

  std::atomic<bool> done{false};
  std::atomic<int> sent{0}, answered{0}, limited{0};
  std::vector<std::thread> flood;
  for (int k = 0; k < 8; ++k)
    flood.emplace_back([&, k] {
      const std::string from = "127.0.3." + std::to_string(k + 1);
      for (int i = 0; i < 3000 && !done; ++i) {  // bounded in count and by the probe's end
        const std::string req =
            i % 2 ? get_request("/") : form_request(guess_body("f" + std::to_string(i), "x"));
        const int s = exchange(p.port(), req, from).status;
        ++sent;
        answered += s != 0;
        limited += s == 429;
      }
    });
  std::this_thread::sleep_for(100ms);  // the flood is under way
  const auto t = Clock::now();
  probe(flood_ms, flood_ok, "127.0.0.3");
  const double flood_s = std::chrono::duration<double>(Clock::now() - t).count();
  done = true;
  for (std::thread& th : flood) th.join();

  const double quiet = median_ms(quiet_ms), loud = median_ms(flood_ms);
  MESSAGE("probe median " << quiet << " ms quiet, " << loud << " ms under the flood (max "
                          << *std::max_element(flood_ms.begin(), flood_ms.end()) << " ms); flood "
                          << sent.load() << " requests (" << sent.load() / (flood_s + 0.1)
                          << "/s), " << limited.load() << " answered 429, " << answered.load()
                          << " answered in all");
  CHECK(quiet_ok == 40);
  CHECK(flood_ok == 40);              // not one probe refused or dropped
  CHECK(loud <= 50 * quiet + 250.0);  // a bound from the quiet run beside it, with room to spare
  CHECK(limited > 0);
}

TEST_CASE("poll server: stop ends a connection in flight at once") {
  const int threads_before = thread_count();
  PollServerLimits lim;
  lim.deadline = 60s;
  lim.idle = 60s;
  Running p = start_poll(lim);
  const int s = connect_from(p.port(), "127.0.0.40");
  REQUIRE(s >= 0);
  REQUIRE(send_all(s, "GET / HTTP/1.1\r\n"));  // half a request: a worker waits on it
  wait_admitted(*p.server, 1);
  const auto t = Clock::now();
  p.server->stop();
  const double stop_ms = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  const Reply r = read_reply(s, 20s);
  close(s);
  CHECK(r.closed);
  CHECK(thread_count() == threads_before);
  MESSAGE("stop took " << stop_ms << " ms with a connection waiting on its 60 s deadline");
}

TEST_CASE("poll server: a port in use or an address not of this machine is an error") {
  Running a = start_poll();
  auto state = std::make_shared<PollState>();
  Result<std::unique_ptr<PollServer>> b = PollServer::start({"127.0.0.1", a.port()}, state);
  REQUIRE_FALSE(b.ok());
  CHECK(b.error().message.find("cannot listen on 127.0.0.1:") != std::string::npos);
  CHECK_FALSE(PollServer::start({"192.0.2.1", 0}, state).ok());  // TEST-NET-1: not ours
  CHECK(exchange(a.port(), get_request("/")).status == 200);     // the first one still serves
}
