// Reads the #SBATCH / #FAIRWAY directive lines at the top of a job script, as sbatch does:
// they count only until the first line that is neither blank nor a comment. Pure, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"

namespace fairway::cli {

struct Directive {
  int line = 0;                    // 1-based line number in the script
  std::vector<std::string> words;  // the option words after the #SBATCH / #FAIRWAY marker
};

// Words are split on whitespace with '...' and "..." quoting (-J "my job"); a word that
// starts with '#' ends the directive (a trailing comment). An unterminated quote is an
// error naming the line.
Result<std::vector<Directive>> read_directives(std::string_view script);

}  // namespace fairway::cli
