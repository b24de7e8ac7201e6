// Result<T> and Status: recoverable errors as values, never exceptions across modules.
// An Error carries a category and a message that names the offending field and value.
#pragma once

#include <expected>
#include <string>
#include <utility>

namespace fairway {

enum class ErrorCode {
  kInvalidArgument,  // bad input: config key, CLI option, workload field
  kNotFound,
  kAlreadyExists,
  kFailedPrecondition,  // e.g. an illegal job state transition
  kResourceExhausted,
  kIo,
  kInternal,
  // Appended (wire values are the order): who asks may not do this, or is not proven.
  kPermissionDenied,
  kUnavailable,  // a service we depend on (munged, the store) cannot be reached now
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  // Prefixes context ("file.swf:12: ") so callers can add where without losing what.
  Error with_context(const std::string& where) const { return Error{code, where + ": " + message}; }
};

template <typename T>
using Result = std::expected<T, Error>;

using Status = std::expected<void, Error>;

inline std::unexpected<Error> make_error(ErrorCode code, std::string message) {
  return std::unexpected<Error>(Error{code, std::move(message)});
}

inline std::unexpected<Error> invalid_argument(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

inline Status ok_status() {
  return {};
}

// A result's outcome without its value: for a caller that only checks or logs it.
template <typename T>
Status status_of(const Result<T>& r) {
  if (r) return ok_status();
  return std::unexpected(r.error());
}

}  // namespace fairway
