// Slurm's `%`-field layouts (squeue -o, sinfo -o): "%[.][WIDTH|#]LETTER" fields between
// literal text, values cut or padded to their width. Shared by the queue and sinfo views;
// pure, thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"

namespace fairway::cli {

struct PercentField {
  char letter = 0;  // 0: literal text
  std::string literal;
  int width = 0;        // 0: as wide as the value
  bool right = false;   // "%.10i": right-justified
  bool widest = false;  // "%#P": as wide as the column's widest value, its title, or 9 (sinfo)
};

// `known(letter)` says which letters the layout has; errors name an unknown letter, its
// place in the format and `known_text`.
Result<std::vector<PercentField>> parse_percent_format(const std::string& format,
                                                       const std::function<bool(char)>& known,
                                                       std::string_view known_text);

// `value` cut to the field's width, or padded to it on the justified side.
std::string fit_field(std::string value, const PercentField& f);

// One line per row (and a header line first when `header`): `cell(row, letter)` for each
// field, `title(letter)` for the header. `trim`: trailing blanks dropped (squeue's lines
// end in an unpadded field; sinfo -N keeps its padding, as Slurm prints it).
std::string render_percent_rows(const std::vector<PercentField>& fields, std::size_t rows,
                                const std::function<std::string(std::size_t row, char letter)>& cell,
                                const std::function<std::string(char letter)>& title, bool header,
                                bool trim = true);

}  // namespace fairway::cli
