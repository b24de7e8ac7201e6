// Error propagation for Status and Result<T> without hand-written returns: FAIRWAY_TRY
// returns a failed call's error from the enclosing function, FAIRWAY_TRY_ASSIGN also names
// the value of a successful one. The enclosing function returns Status or some Result<U>.
#pragma once

#include <expected>
#include <utility>

// FAIRWAY_TRY(check(x)); : returns check's error, if any.
#define FAIRWAY_TRY(expr)                                             \
  do {                                                                \
    if (auto fairway_try_status_ = (expr); !fairway_try_status_) {    \
      return std::unexpected(std::move(fairway_try_status_.error())); \
    }                                                                 \
  } while (false)

// FAIRWAY_TRY_ASSIGN(n, parse(x)); : returns parse's error, or declares `n` as its value.
#define FAIRWAY_TRY_ASSIGN(var, expr)                                           \
  auto var##_result_ = (expr);                                                  \
  if (!var##_result_) return std::unexpected(std::move(var##_result_.error())); \
  auto var = std::move(*var##_result_)
