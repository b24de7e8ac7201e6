// A node's PMI server for the tasks of a step started with srun --mpi=pmi2: each task talks
// PMI-1 or PMI-2 on its own socket (PMI_FD); puts are exchanged with the step's other nodes
// at each fence through srun (the relay carries the blobs). Not thread-safe: the relay's loop.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/step/pmi_wire.h"
#include "agent/step/step_pmi.h"
#include "shared/base/result.h"

namespace fairway::agent {

// What every task of the step is told, the same on each node.
struct PmiJob {
  std::string jobid;                       // PMI_JOBID and the KVS's name: "JOB.STEP"
  std::vector<std::int32_t> node_of_rank;  // the step's layout, by global rank
  std::vector<std::int32_t> local_ranks;   // this node's tasks' global ranks, by local id
};

class PmiServer final : public StepPmi {
 public:
  explicit PmiServer(PmiJob job) : job_(std::move(job)) {}
  ~PmiServer() override;
  PmiServer(const PmiServer&) = delete;
  PmiServer& operator=(const PmiServer&) = delete;

  // A socket pair per local task; the task's ends are inherited by the task alone.
  Status open();
  // In the forked task: its end made inheritable, and the variables that name it.
  std::vector<std::pair<std::string, std::string>> task_environment(std::int32_t local) override;
  // In the relay after the forks: the tasks' ends closed here.
  void close_task_ends() override;

  // The sockets to poll (-1 once a task hung up), by local id.
  std::vector<int> fds() const override;
  // Reads what local task `local` sent and answers what can be answered now.
  void on_readable(std::int32_t local) override;

  // Once every local task entered the current fence: its number and this node's blob, to
  // send to srun (once).
  std::optional<std::pair<std::int64_t, std::string>> take_fence() override;
  // srun's answer for fence `number`: every node's blob joined, or (number -1) why it failed.
  void fence_done(std::int64_t number, const std::string& data) override;

  // A task's PMI abort (the step ends as Slurm ends it): the message, once.
  std::optional<std::string> take_abort() override;

 private:
  struct Client {
    int fd = -1;       // the relay's end
    int task_fd = -1;  // the task's end, until the fork
    PmiWire wire = PmiWire::kV1;
    std::string input;
    bool in_fence = false;
    // PMI-2 info-getnodeattr with wait=TRUE on a key not there yet.
    std::optional<std::string> waiting_for;
  };

  void handle(Client& c, std::int32_t local, const PmiCommand& cmd);
  void handle_v1(Client& c, std::int32_t local, const PmiCommand& cmd);
  void handle_v2(Client& c, std::int32_t local, const PmiCommand& cmd);
  void reply(Client& c, std::string_view cmd, const std::vector<std::pair<std::string, std::string>>& args);
  void hang_up(Client& c);
  // Records a put; false (with `why`) when it is too long or there is no room for it.
  bool put(const std::string& key, const std::string& value, std::string& why);
  void enter_fence(Client& c);
  void answer_fence(bool ok, const std::string& why);
  void answer_node_waiters();

  PmiJob job_;
  std::vector<Client> clients_;
  std::map<std::string, std::string> kvs_;                         // every node's puts, as of the last fence
  std::vector<std::pair<std::string, std::string>> pending_puts_;  // this node's since then
  std::size_t pending_bytes_ = 0;
  std::map<std::string, std::string> node_attrs_;  // PMI-2 info-putnodeattr
  std::int64_t fence_number_ = 1;
  bool fence_sent_ = false;
  std::optional<std::string> abort_;
  bool abort_taken_ = false;
};

}  // namespace fairway::agent
