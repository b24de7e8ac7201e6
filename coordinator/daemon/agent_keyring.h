// Which agent CURVE keys the coordinator admits, and for which node each may speak: the
// NODE.pub files of [security] agent_keys_dir. Re-read when the directory changes, so a
// node added or a key replaced (with mv) needs no restart. Not thread-safe: the event loop's.
#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <unordered_map>

namespace fairway::daemon {

class AgentKeyring {
 public:
  explicit AgentKeyring(std::string dir) : dir_(std::move(dir)) {}

  // The node whose key `public_z85` is; nullopt for a key no file lists.
  std::optional<std::string> node_for(const std::string& public_z85);
  std::size_t size() const { return node_by_key_.size(); }

 private:
  void reload_if_changed();

  std::string dir_;
  std::unordered_map<std::string, std::string> node_by_key_;
  std::timespec loaded_mtime_{-1, 0};
};

}  // namespace fairway::daemon
