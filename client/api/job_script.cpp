#include "client/api/job_script.h"

#include <optional>

#include "shared/base/try.h"

namespace fairway::cli {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// The text after the marker when `line` is a directive line, else nullopt.
std::optional<std::string_view> directive_body(std::string_view line) {
  for (std::string_view marker : {std::string_view("#SBATCH"), std::string_view("#FAIRWAY")}) {
    if (!line.starts_with(marker)) continue;
    std::string_view rest = line.substr(marker.size());
    // As Slurm 22.05 reads them: "#SBATCH-n2" is a directive too, "#SBATCHX" a comment.
    if (!rest.empty() && !is_space(rest.front()) && rest.front() != '-') return std::nullopt;
    return rest;
  }
  return std::nullopt;
}

Result<std::vector<std::string>> split_words(std::string_view body, int line_number) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < body.size()) {
    while (i < body.size() && is_space(body[i])) ++i;
    if (i >= body.size() || body[i] == '#') break;
    std::string word;
    while (i < body.size() && !is_space(body[i])) {
      const char c = body[i];
      if (c == '"' || c == '\'') {
        const std::size_t close = body.find(c, i + 1);
        if (close == std::string_view::npos) {
          return invalid_argument("line " + std::to_string(line_number) + ": unterminated " +
                                  std::string(1, c) + " quote");
        }
        word.append(body.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        word.push_back(c);
        ++i;
      }
    }
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace

Result<std::vector<Directive>> read_directives(std::string_view script) {
  std::vector<Directive> out;
  int line_number = 0;
  std::size_t pos = 0;
  while (pos < script.size()) {
    const std::size_t end = script.find('\n', pos);
    std::string_view line = script.substr(pos, end == std::string_view::npos ? end : end - pos);
    pos = end == std::string_view::npos ? script.size() : end + 1;
    ++line_number;

    std::size_t first = 0;
    while (first < line.size() && is_space(line[first])) ++first;
    if (first == line.size()) continue;  // blank
    if (line[first] != '#') break;       // the first command ends the directives
    if (auto body = directive_body(line)) {
      FAIRWAY_TRY_ASSIGN(words, split_words(*body, line_number));
      if (!words.empty()) out.push_back(Directive{line_number, std::move(words)});
    }
  }
  return out;
}

}  // namespace fairway::cli
