// Paths of the topology XML files the agent/os tests load: the shared real machines and
// this repository's hand-written fixtures. Header-only, no state.
#pragma once

#include <string>

namespace fairway::agent::testing {

inline std::string shared_topology(const std::string& file) {
  return std::string(FAIRWAY_SHARED_DIR) + "/topologies/" + file;
}

inline std::string fixture_topology(const std::string& file) {
  return std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/topologies/" + file;
}

}  // namespace fairway::agent::testing
