// Helpers shared by the config tests: parse expecting success or failure, and a minimal
// node group so error tests can focus on one bad key.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "shared/config/config.h"

namespace fairway::config_test {

inline Config parse_ok(std::string_view text) {
  auto r = parse_config(text, "cluster.toml");
  EXPECT_TRUE(r.has_value()) << r.error().message;
  return r ? *r : Config{};
}

// Parses `text`, expects failure, and returns the message for further checks.
inline std::string parse_error(std::string_view text) {
  auto r = parse_config(text, "cluster.toml");
  EXPECT_FALSE(r.has_value()) << "parsed without error:\n" << text;
  if (r) return {};
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  return r.error().message;
}

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "'" << (haystack) << "' does not contain '" << (needle) << "'"

// A minimal valid node group, so error tests can focus on one bad key.
inline constexpr const char* kNode = "[[nodes]]\nnames = \"cn[1-4]\"\ncores_per_socket = 4\n";

}  // namespace fairway::config_test
