// Error and Result<T>: how every core function reports failure. Library code never exits or
// prints; it returns an Error whose message names the file/field and the problem, one line.
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace ts {

struct Error {
  std::string message;
};

inline Error make_error(std::string msg) { return Error{std::move(msg)}; }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Error err) : v_(std::move(err)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace ts

// Propagate an error: TS_TRY(status_expr); returns the Error from the enclosing function.
#define TS_TRY(expr)                                 \
  do {                                               \
    auto ts_try_r_ = (expr);                         \
    if (!ts_try_r_.ok()) return ts_try_r_.error();   \
  } while (0)
