#include "agent/step/pmi_wire.h"

#include <algorithm>
#include <charconv>

namespace fairway::agent {
namespace {

constexpr std::size_t kV2LengthBytes = 6;

Error pmi_error(const std::string& what) {
  return Error{ErrorCode::kInvalidArgument, "PMI: " + what};
}

// "a=b c=d" (PMI-1): tokens split on spaces, each key=value (a bare word is a key with no value).
void add_v1_pairs(std::string_view line, std::vector<std::pair<std::string, std::string>>& out) {
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    std::size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    if (end > at) {
      const std::string_view token = line.substr(at, end - at);
      const std::size_t eq = token.find('=');
      if (eq == std::string_view::npos) {
        out.emplace_back(std::string(token), "");
      } else {
        out.emplace_back(std::string(token.substr(0, eq)), std::string(token.substr(eq + 1)));
      }
    }
    at = end;
  }
}

Result<PmiCommand> command_of(std::vector<std::pair<std::string, std::string>> pairs,
                              std::string_view shown) {
  if (pairs.empty() || (pairs.front().first != "cmd" && pairs.front().first != "mcmd")) {
    return std::unexpected(
        pmi_error("a command must start with cmd=: '" + std::string(shown.substr(0, 80)) + "'"));
  }
  PmiCommand c;
  c.cmd = pairs.front().second;
  if (c.cmd.empty()) return std::unexpected(pmi_error("cmd= names no command"));
  pairs.erase(pairs.begin());
  c.args = std::move(pairs);
  return c;
}

Result<std::optional<PmiCommand>> take_v1(std::string& buffer) {
  // MPICH's spawn is a block of lines "mcmd=spawn" ... "endcmd": taken whole.
  if (buffer.starts_with("mcmd=")) {
    const std::size_t end = buffer.find("endcmd\n");
    if (end == std::string::npos) {
      if (buffer.size() > kMaxPmiCommandBytes)
        return std::unexpected(pmi_error("a spawn block longer than 64 KiB"));
      return std::optional<PmiCommand>();
    }
    std::string block = buffer.substr(0, end);
    buffer.erase(0, end + 7);
    std::replace(block.begin(), block.end(), '\n', ' ');
    std::vector<std::pair<std::string, std::string>> pairs;
    add_v1_pairs(block, pairs);
    auto c = command_of(std::move(pairs), block);
    if (!c) return std::unexpected(c.error());
    return std::optional<PmiCommand>(std::move(*c));
  }
  const std::size_t nl = buffer.find('\n');
  if (nl == std::string::npos) {
    if (buffer.size() > kMaxPmiCommandBytes)
      return std::unexpected(pmi_error("a command line longer than 64 KiB"));
    return std::optional<PmiCommand>();
  }
  if (nl > kMaxPmiCommandBytes) return std::unexpected(pmi_error("a command line longer than 64 KiB"));
  std::string line = buffer.substr(0, nl);
  buffer.erase(0, nl + 1);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::pair<std::string, std::string>> pairs;
  add_v1_pairs(line, pairs);
  auto c = command_of(std::move(pairs), line);
  if (!c) return std::unexpected(c.error());
  return std::optional<PmiCommand>(std::move(*c));
}

Result<std::optional<PmiCommand>> take_v2(std::string& buffer) {
  if (buffer.size() < kV2LengthBytes) return std::optional<PmiCommand>();
  std::string_view field(buffer.data(), kV2LengthBytes);
  while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
  while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
  std::size_t length = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), length);
  if (field.empty() || ec != std::errc() || end != field.data() + field.size()) {
    return std::unexpected(
        pmi_error("a PMI-2 length field must be digits, got '" + buffer.substr(0, kV2LengthBytes) + "'"));
  }
  if (length > kMaxPmiCommandBytes) {
    return std::unexpected(
        pmi_error("a PMI-2 command of " + std::to_string(length) + " bytes (at most 65536)"));
  }
  if (buffer.size() < kV2LengthBytes + length) return std::optional<PmiCommand>();
  const std::string text = buffer.substr(kV2LengthBytes, length);
  buffer.erase(0, kV2LengthBytes + length);
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string key, value;
  bool in_value = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ';') {
      if (in_value && i + 1 < text.size() && text[i + 1] == ';') {
        value += ';';
        ++i;
        continue;
      }
      if (!key.empty() || in_value) pairs.emplace_back(std::move(key), std::move(value));
      key.clear();
      value.clear();
      in_value = false;
    } else if (ch == '=' && !in_value) {
      in_value = true;
    } else {
      (in_value ? value : key) += ch;
    }
  }
  if (!key.empty() || in_value) pairs.emplace_back(std::move(key), std::move(value));
  auto c = command_of(std::move(pairs), text);
  if (!c) return std::unexpected(c.error());
  return std::optional<PmiCommand>(std::move(*c));
}

}  // namespace

std::optional<std::string> PmiCommand::get(std::string_view key) const {
  for (const auto& [k, v] : args) {
    if (k == key) return v;
  }
  return std::nullopt;
}

Result<std::optional<PmiCommand>> take_pmi_command(std::string& buffer, PmiWire wire) {
  return wire == PmiWire::kV1 ? take_v1(buffer) : take_v2(buffer);
}

std::string format_pmi_reply(PmiWire wire, std::string_view cmd,
                             const std::vector<std::pair<std::string, std::string>>& args) {
  std::string text = "cmd=" + std::string(cmd);
  if (wire == PmiWire::kV1) {
    for (const auto& [k, v] : args) text += " " + k + "=" + v;
    return text + "\n";
  }
  text += ";";
  for (const auto& [k, v] : args) {
    text += k + "=";
    for (char ch : v) text += ch == ';' ? std::string(";;") : std::string(1, ch);
    text += ";";
  }
  std::string length = std::to_string(text.size());
  length.resize(kV2LengthBytes, ' ');
  return length + text;
}

std::string pmi_process_mapping(const std::vector<std::int32_t>& node_of_rank) {
  // Runs of ranks on one node, then runs of consecutive nodes with the same count merged:
  // (first node, nodes, ranks on each).
  struct Block {
    std::int32_t node, nodes, ranks;
  };
  std::vector<Block> blocks;
  for (std::size_t r = 0; r < node_of_rank.size();) {
    std::size_t e = r;
    while (e < node_of_rank.size() && node_of_rank[e] == node_of_rank[r]) ++e;
    const Block run{node_of_rank[r], 1, static_cast<std::int32_t>(e - r)};
    if (!blocks.empty() && blocks.back().ranks == run.ranks &&
        blocks.back().node + blocks.back().nodes == run.node) {
      ++blocks.back().nodes;
    } else {
      blocks.push_back(run);
    }
    r = e;
  }
  std::string out = "(vector";
  for (const Block& b : blocks) {
    out +=
        ",(" + std::to_string(b.node) + "," + std::to_string(b.nodes) + "," + std::to_string(b.ranks) + ")";
  }
  return out + ")";
}

}  // namespace fairway::agent
