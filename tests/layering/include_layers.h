// The layer rules of docs/architecture.md section 2 as data, and a check of every #include of the
// source tree against them. Pure functions over file contents; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace fairway::layering {

struct Violation {
  std::string file;  // relative to the source root
  int line = 0;
  std::string what;
};

// Checks every .h/.cpp under the layered directories of `root`. A directory the table
// does not know is itself a violation, so that a new area must say what it may use.
std::vector<Violation> check_tree(const std::filesystem::path& root);

}  // namespace fairway::layering
