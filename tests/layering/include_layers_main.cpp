// include_layers SOURCE_ROOT: prints each layering violation and exits 1 when there is any.
#include <iostream>

#include "include_layers.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: include_layers SOURCE_ROOT\n";
    return 2;
  }
  const auto violations = fairway::layering::check_tree(argv[1]);
  for (const auto& v : violations) {
    std::cout << v.file << (v.line > 0 ? ":" + std::to_string(v.line) : "") << ": " << v.what << "\n";
  }
  if (!violations.empty()) return 1;
  std::cout << "layering: ok\n";
  return 0;
}
