#include "agent/step/pmi_server.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shared/net/step_stream.h"
#include "shared/wire/step_exchange.h"

namespace fairway::agent {
namespace {

// What the step's tasks may hold in all, every node's puts together: a task cannot grow the
// relay without bound by fencing again and again with new keys.
constexpr std::size_t kMaxKvsBytes = 16u << 20;

std::string rc(bool ok) {
  return ok ? "0" : "-1";
}

}  // namespace

PmiServer::~PmiServer() {
  for (Client& c : clients_) {
    if (c.fd >= 0) ::close(c.fd);
    if (c.task_fd >= 0) ::close(c.task_fd);
  }
}

Status PmiServer::open() {
  clients_.resize(job_.local_ranks.size());
  for (Client& c : clients_) {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      return make_error(ErrorCode::kIo, std::string("PMI: socketpair: ") + std::strerror(errno));
    }
    (void)::fcntl(sv[0], F_SETFL, ::fcntl(sv[0], F_GETFL) | O_NONBLOCK);
    c.fd = sv[0];
    c.task_fd = sv[1];
  }
  return ok_status();
}

std::vector<std::pair<std::string, std::string>> PmiServer::task_environment(std::int32_t local) {
  Client& c = clients_[static_cast<std::size_t>(local)];
  // Only this task's end outlives the exec (the others' are close-on-exec).
  (void)::fcntl(c.task_fd, F_SETFD, 0);
  return {{"PMI_FD", std::to_string(c.task_fd)},
          {"PMI_JOBID", job_.jobid},
          {"PMI_RANK", std::to_string(job_.local_ranks[static_cast<std::size_t>(local)])},
          {"PMI_SIZE", std::to_string(job_.node_of_rank.size())},
          {"SLURM_MPI_TYPE", "pmi2"}};
}

void PmiServer::close_task_ends() {
  for (Client& c : clients_) {
    if (c.task_fd >= 0) ::close(c.task_fd);
    c.task_fd = -1;
  }
}

std::vector<int> PmiServer::fds() const {
  std::vector<int> out;
  for (const Client& c : clients_) out.push_back(c.fd);
  return out;
}

void PmiServer::hang_up(Client& c) {
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
  c.in_fence = false;
  c.waiting_for.reset();
  c.input.clear();
}

void PmiServer::on_readable(std::int32_t local) {
  Client& c = clients_[static_cast<std::size_t>(local)];
  if (c.fd < 0) return;
  char buf[16384];
  while (true) {
    const ssize_t n = ::read(c.fd, buf, sizeof buf);
    if (n > 0) {
      c.input.append(buf, static_cast<std::size_t>(n));
      if (c.input.size() > kMaxPmiCommandBytes * 2) break;  // parsed (and bounded) below
      continue;
    }
    if (n == 0) return hang_up(c);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    return hang_up(c);
  }
  while (c.fd >= 0) {
    auto cmd = take_pmi_command(c.input, c.wire);
    if (!cmd) {
      // Garbage on a PMI socket: the task cannot be spoken with; it is dropped, not the relay.
      abort_ = "task " + std::to_string(job_.local_ranks[static_cast<std::size_t>(local)]) + ": " +
               cmd.error().message;
      return hang_up(c);
    }
    if (!*cmd) return;
    handle(c, local, **cmd);
  }
}

void PmiServer::reply(Client& c, std::string_view cmd,
                      const std::vector<std::pair<std::string, std::string>>& args) {
  if (c.fd < 0) return;
  // The task reads its reply before it sends more: a blocking write of one reply is short.
  const int flags = ::fcntl(c.fd, F_GETFL);
  (void)::fcntl(c.fd, F_SETFL, flags & ~O_NONBLOCK);
  const bool ok = net::write_all(c.fd, format_pmi_reply(c.wire, cmd, args));
  (void)::fcntl(c.fd, F_SETFL, flags);
  if (!ok) hang_up(c);
}

bool PmiServer::put(const std::string& key, const std::string& value, std::string& why) {
  if (key.empty() || key.size() > kMaxPmiKeyBytes) {
    why = "key_of_" + std::to_string(key.size()) + "_bytes_(1-256)";
    return false;
  }
  if (value.size() > kMaxPmiValueBytes) {
    why = "value_of_" + std::to_string(value.size()) + "_bytes_(at_most_1024)";
    return false;
  }
  if (pending_bytes_ + key.size() + value.size() + 8 > wire::kMaxFenceBytes) {
    why = "too_much_put_before_a_fence";
    return false;
  }
  pending_bytes_ += key.size() + value.size() + 8;
  pending_puts_.emplace_back(key, value);
  return true;
}

void PmiServer::handle(Client& c, std::int32_t local, const PmiCommand& cmd) {
  if (c.wire == PmiWire::kV1) return handle_v1(c, local, cmd);
  handle_v2(c, local, cmd);
}

void PmiServer::handle_v1(Client& c, std::int32_t local, const PmiCommand& cmd) {
  const std::string size = std::to_string(job_.node_of_rank.size());
  const std::string& name = cmd.cmd;
  if (name == "init") {
    // A PMI-2 client starts with this PMI-1 line, then speaks PMI-2.
    if (cmd.get("pmi_version").value_or("1") == "2") {
      reply(c, "response_to_init", {{"pmi_version", "2"}, {"pmi_subversion", "0"}, {"rc", "0"}});
      c.wire = PmiWire::kV2;
      return;
    }
    return reply(c, "response_to_init", {{"pmi_version", "1"}, {"pmi_subversion", "1"}, {"rc", "0"}});
  }
  if (name == "get_maxes") {
    return reply(c, "maxes",
                 {{"rc", "0"},
                  {"kvsname_max", "256"},
                  {"keylen_max", std::to_string(kMaxPmiKeyBytes)},
                  {"vallen_max", std::to_string(kMaxPmiValueBytes)}});
  }
  if (name == "get_appnum") return reply(c, "appnum", {{"rc", "0"}, {"appnum", "0"}});
  if (name == "get_universe_size") return reply(c, "universe_size", {{"rc", "0"}, {"size", size}});
  if (name == "get_my_kvsname") return reply(c, "my_kvsname", {{"rc", "0"}, {"kvsname", job_.jobid}});
  if (name == "put") {
    std::string why;
    const bool ok = put(cmd.get("key").value_or(""), cmd.get("value").value_or(""), why);
    if (!ok) return reply(c, "put_result", {{"rc", "-1"}, {"msg", why}});
    return reply(c, "put_result", {{"rc", "0"}, {"msg", "success"}});
  }
  if (name == "get") {
    const std::string key = cmd.get("key").value_or("");
    if (key == "PMI_process_mapping") {
      return reply(c, "get_result",
                   {{"rc", "0"}, {"msg", "success"}, {"value", pmi_process_mapping(job_.node_of_rank)}});
    }
    if (auto it = kvs_.find(key); it != kvs_.end()) {
      return reply(c, "get_result", {{"rc", "0"}, {"msg", "success"}, {"value", it->second}});
    }
    return reply(c, "get_result", {{"rc", "-1"}, {"msg", "key_" + key + "_not_found"}});
  }
  if (name == "barrier_in") return enter_fence(c);
  if (name == "finalize") return reply(c, "finalize_ack", {{"rc", "0"}});
  if (name == "abort") {
    abort_ = "task " + std::to_string(job_.local_ranks[static_cast<std::size_t>(local)]) +
             " called PMI abort (exit code " + cmd.get("exitcode").value_or("?") + ")";
    return;
  }
  // spawn, publish_name, lookup_name...: not served; the task hears why.
  reply(c, name + "_result", {{"rc", "-1"}, {"msg", "not_supported_by_fairway"}});
}

void PmiServer::handle_v2(Client& c, std::int32_t local, const PmiCommand& cmd) {
  const std::string size = std::to_string(job_.node_of_rank.size());
  const std::string& name = cmd.cmd;
  const std::string response = name + "-response";
  if (name == "fullinit") {
    return reply(c, response,
                 {{"rc", "0"},
                  {"pmi-version", "2"},
                  {"pmi-subversion", "0"},
                  {"rank", std::to_string(job_.local_ranks[static_cast<std::size_t>(local)])},
                  {"size", size},
                  {"appnum", "0"},
                  {"spawner-jobid", ""},
                  {"debugged", "FALSE"},
                  {"pmiverbose", "FALSE"}});
  }
  if (name == "job-getid") return reply(c, response, {{"rc", "0"}, {"jobid", job_.jobid}});
  if (name == "info-getjobattr") {
    const std::string key = cmd.get("key").value_or("");
    if (key == "PMI_process_mapping") {
      return reply(c, response,
                   {{"rc", "0"}, {"found", "TRUE"}, {"value", pmi_process_mapping(job_.node_of_rank)}});
    }
    if (key == "universeSize") return reply(c, response, {{"rc", "0"}, {"found", "TRUE"}, {"value", size}});
    return reply(c, response, {{"rc", "0"}, {"found", "FALSE"}});
  }
  if (name == "info-putnodeattr") {
    const std::string key = cmd.get("key").value_or("");
    const std::string value = cmd.get("value").value_or("");
    if (key.empty() || key.size() > kMaxPmiKeyBytes || value.size() > kMaxPmiValueBytes ||
        node_attrs_.size() >= 4096) {
      return reply(c, response,
                   {{"rc", "-1"}, {"errmsg", "key or value too long, or too many node attributes"}});
    }
    node_attrs_[key] = value;
    reply(c, response, {{"rc", "0"}});
    return answer_node_waiters();
  }
  if (name == "info-getnodeattr") {
    const std::string key = cmd.get("key").value_or("");
    if (auto it = node_attrs_.find(key); it != node_attrs_.end()) {
      return reply(c, response, {{"rc", "0"}, {"found", "TRUE"}, {"value", it->second}});
    }
    if (cmd.get("wait").value_or("FALSE") == "TRUE") {
      c.waiting_for = key;
      return;
    }
    return reply(c, response, {{"rc", "0"}, {"found", "FALSE"}});
  }
  if (name == "kvs-put") {
    std::string why;
    if (!put(cmd.get("key").value_or(""), cmd.get("value").value_or(""), why)) {
      return reply(c, response, {{"rc", "-1"}, {"errmsg", why}});
    }
    return reply(c, response, {{"rc", "0"}});
  }
  if (name == "kvs-fence") return enter_fence(c);
  if (name == "kvs-get") {
    const std::string key = cmd.get("key").value_or("");
    if (auto it = kvs_.find(key); it != kvs_.end()) {
      return reply(c, response, {{"rc", "0"}, {"found", "TRUE"}, {"value", it->second}});
    }
    return reply(c, response, {{"rc", "0"}, {"found", "FALSE"}});
  }
  if (name == "finalize") return reply(c, response, {{"rc", "0"}});
  if (name == "abort") {
    abort_ = "task " + std::to_string(job_.local_ranks[static_cast<std::size_t>(local)]) +
             " called PMI abort: " + cmd.get("msg").value_or("");
    return;
  }
  reply(c, response, {{"rc", "-1"}, {"errmsg", "not supported by Fairway"}});
}

void PmiServer::answer_node_waiters() {
  for (Client& c : clients_) {
    if (!c.waiting_for) continue;
    auto it = node_attrs_.find(*c.waiting_for);
    if (it == node_attrs_.end()) continue;
    c.waiting_for.reset();
    reply(c, "info-getnodeattr-response", {{"rc", "0"}, {"found", "TRUE"}, {"value", it->second}});
  }
}

void PmiServer::enter_fence(Client& c) {
  c.in_fence = true;
}

std::optional<std::pair<std::int64_t, std::string>> PmiServer::take_fence() {
  if (fence_sent_) return std::nullopt;
  bool any = false;
  for (const Client& c : clients_) {
    if (c.fd < 0) continue;  // a task that ended does not hold the others' fence back
    if (!c.in_fence) return std::nullopt;
    any = true;
  }
  if (!any) return std::nullopt;
  fence_sent_ = true;
  return std::pair{fence_number_, wire::encode_fence_pairs(pending_puts_)};
}

void PmiServer::fence_done(std::int64_t number, const std::string& data) {
  if (!fence_sent_) return;
  if (number < 0) return answer_fence(false, data);
  if (number != fence_number_) return answer_fence(false, "srun answered fence " + std::to_string(number));
  std::int32_t nodes = 0;
  for (std::int32_t n : job_.node_of_rank) nodes = std::max(nodes, n + 1);
  auto blobs = wire::split_fence_blobs(data, static_cast<std::size_t>(nodes));
  if (!blobs) return answer_fence(false, blobs.error().message);
  std::size_t total = 0;
  for (const auto& [k, v] : kvs_) total += k.size() + v.size();
  for (const std::string& blob : *blobs) {
    auto pairs = wire::decode_fence_pairs(blob);
    if (!pairs) return answer_fence(false, pairs.error().message);
    for (auto& [k, v] : *pairs) {
      total += k.size() + v.size();
      kvs_[std::move(k)] = std::move(v);
    }
  }
  if (total > kMaxKvsBytes) return answer_fence(false, "the step's tasks put more than 16 MiB in all");
  answer_fence(true, "");
}

void PmiServer::answer_fence(bool ok, const std::string& why) {
  pending_puts_.clear();
  pending_bytes_ = 0;
  fence_sent_ = false;
  ++fence_number_;
  for (Client& c : clients_) {
    if (!c.in_fence) continue;
    c.in_fence = false;
    if (c.wire == PmiWire::kV1) {
      reply(
          c, "barrier_out",
          ok ? std::vector<std::pair<std::string, std::string>>{{"rc", "0"}}
             : std::vector<std::pair<std::string, std::string>>{{"rc", rc(false)}, {"msg", "fence_failed"}});
    } else {
      reply(c, "kvs-fence-response",
            ok ? std::vector<std::pair<std::string, std::string>>{{"rc", "0"}}
               : std::vector<std::pair<std::string, std::string>>{{"rc", "-1"}, {"errmsg", why}});
    }
  }
  if (!ok && !abort_) abort_ = "a PMI fence failed: " + why;
}

std::optional<std::string> PmiServer::take_abort() {
  if (!abort_ || abort_taken_) return std::nullopt;
  abort_taken_ = true;
  return abort_;
}

}  // namespace fairway::agent
