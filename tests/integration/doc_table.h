// The rows of a table in one section of a document (docs/slurm-compat.md's lists of
// differences kept from Slurm): each row's cells, trimmed, with `backquotes` taken off.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fairway::integration {

// Rows of the tables under the heading `## SECTION` (to the next "## "), that is lines
// starting "| `": the header and separator rows are not returned.
inline std::vector<std::vector<std::string>> doc_table_rows(const std::string& path,
                                                            const std::string& section) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  std::vector<std::vector<std::string>> rows;
  bool in_section = false;
  std::string l;
  while (std::getline(text, l)) {
    if (l.starts_with("## ")) in_section = l.starts_with("## " + section);
    if (!in_section || !l.starts_with("| `")) continue;
    std::vector<std::string> cells;
    std::size_t at = 1;
    while (at < l.size()) {
      const auto bar = l.find(" |", at);
      if (bar == std::string::npos) break;
      std::string c = l.substr(at, bar - at);
      while (!c.empty() && c.front() == ' ') c.erase(0, 1);
      if (c.size() >= 2 && c.front() == '`' && c.back() == '`') c = c.substr(1, c.size() - 2);
      cells.push_back(c);
      at = bar + 2;
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

}  // namespace fairway::integration
