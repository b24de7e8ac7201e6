#include "coordinator/daemon/agent_keyring.h"

#include <sys/stat.h>

#include <filesystem>

#include "shared/base/log.h"
#include "shared/net/curve_keys.h"

namespace fairway::daemon {

void AgentKeyring::reload_if_changed() {
  struct stat st {};
  if (::stat(dir_.c_str(), &st) != 0) {
    node_by_key_.clear();
    return;
  }
  if (st.st_mtim.tv_sec == loaded_mtime_.tv_sec && st.st_mtim.tv_nsec == loaded_mtime_.tv_nsec) return;
  loaded_mtime_ = st.st_mtim;
  node_by_key_.clear();
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
    if (e.path().extension() != ".pub") continue;
    auto key = net::read_curve_public_key(e.path().string());
    if (!key) {
      log_event(LogLevel::kWarning, "agent_key_unreadable", {{"error", key.error().message}});
      continue;
    }
    node_by_key_[*key] = e.path().stem().string();
  }
  log_event(LogLevel::kInfo, "agent_keys_loaded",
            {{"dir", dir_}, {"keys", std::to_string(node_by_key_.size())}});
}

std::optional<std::string> AgentKeyring::node_for(const std::string& public_z85) {
  reload_if_changed();
  auto it = node_by_key_.find(public_z85);
  if (it == node_by_key_.end()) return std::nullopt;
  return it->second;
}

}  // namespace fairway::daemon
