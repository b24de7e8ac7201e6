#include <cctype>
#include <string>
#include <string_view>

#include "agent/os/topology_discovery.h"

namespace fairway::agent {
namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// A data-centre GPU family as vendors name it: a series letter (NVIDIA K, M, P, V, T, A, H,
// L, B), "GH"/"GB" (Grace superchips) or "MI" (AMD Instinct), a number, and an optional
// short suffix: "V100", "K40m", "L40S", "MI250X". Words like "SXM2", "HBM3" and "16GB" do
// not fit, so the family is the first token that does.
constexpr std::string_view kSeriesLetters = "kmpvtahlb";

bool is_family(std::string_view token) {
  std::size_t prefix = 0;
  if (token.starts_with("gh") || token.starts_with("gb") || token.starts_with("mi")) {
    prefix = 2;
  } else if (!token.empty() && kSeriesLetters.find(token[0]) != std::string_view::npos) {
    prefix = 1;
  } else {
    return false;
  }
  std::size_t i = prefix;
  while (i < token.size() && is_digit(token[i])) ++i;
  const std::size_t digits = i - prefix;
  if (digits < 1 || digits > 4) return false;
  const std::size_t suffix = token.size() - i;
  if (suffix > 2) return false;
  for (; i < token.size(); ++i) {
    if (!is_alpha(token[i])) return false;
  }
  return true;
}

bool is_separator(char c) {
  return c == ' ' || c == '-' || c == '_' || c == '/' || c == ',' || c == '(' || c == ')';
}

}  // namespace

std::string gpu_type_tag(std::string_view model) {
  std::string lowered;
  lowered.reserve(model.size());
  for (char c : model) lowered.push_back(lower(c));

  std::size_t start = 0;
  while (start < lowered.size()) {
    while (start < lowered.size() && is_separator(lowered[start])) ++start;
    std::size_t end = start;
    while (end < lowered.size() && !is_separator(lowered[end])) ++end;
    const std::string_view token = std::string_view(lowered).substr(start, end - start);
    if (is_family(token)) return std::string(token);
    start = end;
  }
  for (char& c : lowered) {
    if (c == ' ') c = '-';
  }
  return lowered;
}

}  // namespace fairway::agent
