#include "client/views/slurm/percent_format.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace fairway::cli {

Result<std::vector<PercentField>> parse_percent_format(const std::string& format,
                                                       const std::function<bool(char)>& known,
                                                       std::string_view known_text) {
  std::vector<PercentField> fields;
  std::string literal;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      literal += format[i];
      continue;
    }
    const std::size_t at = i;
    if (i + 1 < format.size() && format[i + 1] == '%') {
      literal += '%';
      ++i;
      continue;
    }
    PercentField f;
    if (i + 1 < format.size() && format[i + 1] == '.') {
      f.right = true;
      ++i;
    }
    if (i + 1 < format.size() && format[i + 1] == '#') {
      f.widest = true;
      ++i;
    }
    while (i + 1 < format.size() && std::isdigit(static_cast<unsigned char>(format[i + 1])) != 0) {
      f.width = f.width * 10 + (format[i + 1] - '0');
      if (f.width > 1000)
        return invalid_argument("--format: width over 1000 at position " + std::to_string(at + 1));
      ++i;
    }
    if (i + 1 >= format.size()) {
      return invalid_argument("--format \"" + format + "\": '%' at position " + std::to_string(at + 1) +
                              " has no field letter");
    }
    f.letter = format[++i];
    if (!known(f.letter)) {
      return invalid_argument("--format \"" + format + "\": unknown field %" + std::string(1, f.letter) +
                              " at position " + std::to_string(at + 1) +
                              " (known: " + std::string(known_text) + ")");
    }
    if (!literal.empty()) fields.push_back(PercentField{0, std::exchange(literal, {}), 0, false, false});
    fields.push_back(f);
  }
  if (!literal.empty()) fields.push_back(PercentField{0, literal, 0, false, false});
  return fields;
}

std::string fit_field(std::string value, const PercentField& f) {
  if (f.width <= 0) return value;
  const auto w = static_cast<std::size_t>(f.width);
  if (value.size() > w) return value.substr(0, w);
  const std::string pad(w - value.size(), ' ');
  return f.right ? pad + value : value + pad;
}

std::string render_percent_rows(const std::vector<PercentField>& fields, std::size_t rows,
                                const std::function<std::string(std::size_t row, char letter)>& cell,
                                const std::function<std::string(char letter)>& title, bool header,
                                bool trim) {
  // "%#X": the column's widest value, its title or sinfo's 9 columns, whichever is widest.
  std::vector<PercentField> sized = fields;
  for (PercentField& f : sized) {
    if (!f.widest || f.letter == 0) continue;
    std::size_t widest = std::max<std::size_t>(9, header ? title(f.letter).size() : 0);
    for (std::size_t r = 0; r < rows; ++r) widest = std::max(widest, cell(r, f.letter).size());
    f.width = static_cast<int>(widest);
  }
  std::string out;
  const auto line = [&](const std::function<std::string(char)>& value) {
    std::string text;
    for (const PercentField& f : sized) text += f.letter == 0 ? f.literal : fit_field(value(f.letter), f);
    while (trim && !text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  if (header) line(title);
  for (std::size_t r = 0; r < rows; ++r) line([&](char letter) { return cell(r, letter); });
  return out;
}

}  // namespace fairway::cli
