// The client's one way to the coordinator: a request in, its reply out, behind a function
// so that commands and views are tested without a socket; the exit codes they end with.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <variant>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the coordinator refused, or could not be reached
inline constexpr int kExitUsage = 2;    // bad options or values

// Sends one request and returns the coordinator's reply (an ErrorReply included).
using Transport = std::function<Result<wire::Message>(const wire::Message&)>;

struct Output {
  std::ostream& out;
  std::ostream& err;
};

// Prints "fairway: error: MESSAGE" to err and returns `code`.
int report_error(const Output& io, const std::string& message, int code);

// Calls the coordinator and unpacks a reply of type T; anything else (no reply, an
// ErrorReply, another type) is printed as a failure and gives nullopt.
template <typename T>
std::optional<T> ask(const wire::Message& request, const Transport& transport, const Output& io) {
  auto reply = transport(request);
  if (!reply) {
    report_error(io, reply.error().message, kExitFailure);
    return std::nullopt;
  }
  if (const auto* e = std::get_if<wire::ErrorReply>(&*reply)) {
    report_error(io, "coordinator: " + e->message, kExitFailure);
    return std::nullopt;
  }
  if (const auto* t = std::get_if<T>(&*reply)) return *t;
  report_error(io,
               "unexpected " + std::string(to_string(wire::message_type(*reply))) + " in reply to " +
                   std::string(to_string(wire::message_type(request))),
               kExitFailure);
  return std::nullopt;
}

}  // namespace fairway::cli
