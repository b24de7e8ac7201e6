#include "agent/step/pmix_server.h"

#include "shared/base/try.h"

#if FAIRWAY_HAVE_PMIX
#include <fcntl.h>
#include <pmix.h>
#include <pmix_server.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>

#include "shared/wire/step_exchange.h"
#endif

namespace fairway::agent {

#if !FAIRWAY_HAVE_PMIX

Result<std::unique_ptr<StepPmi>> open_pmix_server(const PmixStep&) {
  return make_error(ErrorCode::kFailedPrecondition,
                    "--mpi=pmix: this node's fairway-step was built without OpenPMIx (libpmix-dev)");
}

#else

namespace {

// The library calls the module's functions on its own thread; the relay's loop is
// single-threaded. What they hand over waits here, and a byte on `wake` tells the loop.
struct Handoff {
  struct Fence {
    std::string data;
    pmix_modex_cbfunc_t done = nullptr;
    void* cbdata = nullptr;
  };
  std::mutex mu;
  std::deque<Fence> fences;
  std::optional<std::string> abort;
  int wake[2] = {-1, -1};

  void notify() { (void)!::write(wake[1], "f", 1); }
};
Handoff* g_handoff = nullptr;

pmix_status_t on_connected(const pmix_proc_t*, void*, pmix_op_cbfunc_t, void*) {
  return PMIX_OPERATION_SUCCEEDED;
}
pmix_status_t on_finalized(const pmix_proc_t*, void*, pmix_op_cbfunc_t, void*) {
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t on_abort(const pmix_proc_t* proc, void*, int status, const char msg[], pmix_proc_t*, size_t,
                       pmix_op_cbfunc_t, void*) {
  std::lock_guard lock(g_handoff->mu);
  if (!g_handoff->abort) {
    g_handoff->abort = "task " + std::to_string(proc != nullptr ? proc->rank : 0) +
                       " called PMIx_Abort (status " + std::to_string(status) + ")" +
                       (msg != nullptr && msg[0] != 0 ? std::string(": ") + msg : "");
  }
  g_handoff->notify();
  return PMIX_OPERATION_SUCCEEDED;
}

// Every local task entered the fence: the node's blob goes to srun; the step's answer,
// every node's blobs one after the other, is what the library expects back.
pmix_status_t on_fence(const pmix_proc_t*, size_t, const pmix_info_t*, size_t, char* data, size_t ndata,
                       pmix_modex_cbfunc_t done, void* cbdata) {
  std::lock_guard lock(g_handoff->mu);
  g_handoff->fences.push_back({std::string(data != nullptr ? data : "", ndata), done, cbdata});
  g_handoff->notify();
  return PMIX_SUCCESS;
}

// Data of a process not yet exchanged: every fence here collects all of it, so there is
// nothing more to ask another node for.
pmix_status_t on_direct_modex(const pmix_proc_t*, const pmix_info_t*, size_t, pmix_modex_cbfunc_t, void*) {
  return PMIX_ERR_NOT_SUPPORTED;
}

void release_blob(void* blob) {
  std::free(blob);
}

// Waits for one of the library's non-blocking registrations.
struct Completion {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  pmix_status_t status = PMIX_SUCCESS;
  static void callback(pmix_status_t status, void* self) {
    auto* c = static_cast<Completion*>(self);
    std::lock_guard lock(c->mu);
    c->status = status;
    c->done = true;
    c->cv.notify_all();
  }
  pmix_status_t wait(pmix_status_t started) {
    if (started == PMIX_OPERATION_SUCCEEDED) return PMIX_SUCCESS;
    if (started != PMIX_SUCCESS) return started;
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return done; });
    return status;
  }
};

Error pmix_error(const std::string& what, pmix_status_t status) {
  return Error{ErrorCode::kInternal, "PMIx: " + what + ": " + PMIx_Error_string(status)};
}

// A list of ranks as "0,1,2".
std::string ranks_text(const std::vector<std::int32_t>& ranks) {
  std::string out;
  for (std::int32_t r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
  return out;
}

class PmixServer final : public StepPmi {
 public:
  PmixServer(PmixStep step, std::string dir) : step_(std::move(step)), dir_(std::move(dir)) {}
  ~PmixServer() override {
    if (initialised_) (void)PMIx_server_finalize();
    g_handoff = nullptr;
    for (int fd : handoff_.wake) {
      if (fd >= 0) ::close(fd);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  Status start() {
    if (::pipe2(handoff_.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
      return make_error(ErrorCode::kIo, std::string("PMIx: pipe: ") + std::strerror(errno));
    }
    g_handoff = &handoff_;
    static pmix_server_module_t module{};
    module.client_connected = on_connected;
    module.client_finalized = on_finalized;
    module.abort = on_abort;
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    pmix_info_t info[1];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, dir_.c_str(), PMIX_STRING);
    const pmix_status_t rc = PMIx_server_init(&module, info, 1);
    PMIX_INFO_DESTRUCT(&info[0]);
    if (rc != PMIX_SUCCESS) return std::unexpected(pmix_error("server init", rc));
    initialised_ = true;
    FAIRWAY_TRY(register_step());
    for (std::size_t l = 0; l < step_.local_ranks.size(); ++l) FAIRWAY_TRY(register_task(l));
    return ok_status();
  }

  std::vector<std::pair<std::string, std::string>> task_environment(std::int32_t local) override {
    auto env = env_[static_cast<std::size_t>(local)];
    env.emplace_back("SLURM_MPI_TYPE", "pmix");
    return env;
  }
  void close_task_ends() override {}
  std::vector<int> fds() const override { return {handoff_.wake[0]}; }
  void on_readable(std::int32_t) override {
    char drained[64];
    while (::read(handoff_.wake[0], drained, sizeof drained) > 0) {
    }
  }

  std::optional<std::pair<std::int64_t, std::string>> take_fence() override {
    if (in_flight_) return std::nullopt;
    std::lock_guard lock(handoff_.mu);
    if (handoff_.fences.empty()) return std::nullopt;
    in_flight_ = std::move(handoff_.fences.front());
    handoff_.fences.pop_front();
    return std::pair{number_, in_flight_->data};
  }

  void fence_done(std::int64_t number, const std::string& data) override {
    if (!in_flight_) return;
    Handoff::Fence fence = std::move(*in_flight_);
    in_flight_.reset();
    ++number_;
    if (number < 0) {
      failure_ = "a PMIx fence failed: " + data;
      fence.done(PMIX_ERROR, nullptr, 0, fence.cbdata, nullptr, nullptr);
      return;
    }
    auto blobs = wire::split_fence_blobs(data, step_.nodes.size());
    if (!blobs) {
      failure_ = "a PMIx fence failed: " + blobs.error().message;
      fence.done(PMIX_ERROR, nullptr, 0, fence.cbdata, nullptr, nullptr);
      return;
    }
    // The library reads every server's contribution from one buffer, one after another.
    std::size_t total = 0;
    for (const std::string& b : *blobs) total += b.size();
    char* joined = static_cast<char*>(std::malloc(total > 0 ? total : 1));
    std::size_t at = 0;
    for (const std::string& b : *blobs) {
      std::memcpy(joined + at, b.data(), b.size());
      at += b.size();
    }
    fence.done(PMIX_SUCCESS, joined, total, fence.cbdata, release_blob, joined);
  }

  std::optional<std::string> take_abort() override {
    if (abort_taken_) return std::nullopt;
    std::optional<std::string> why = failure_;
    if (!why) {
      std::lock_guard lock(handoff_.mu);
      why = handoff_.abort;
    }
    if (why) abort_taken_ = true;
    return why;
  }

 private:
  Status register_step() {
    const auto size = static_cast<std::uint32_t>(step_.node_of_rank.size());
    const auto nnodes = static_cast<std::uint32_t>(step_.nodes.size());
    const auto local = static_cast<std::uint32_t>(step_.local_ranks.size());
    const auto node = static_cast<std::uint32_t>(step_.node_index);
    // The node map and the ranks on each node, in the library's compressed forms.
    std::string hosts, ppn;
    std::vector<std::vector<std::int32_t>> by_node(step_.nodes.size());
    for (std::size_t r = 0; r < step_.node_of_rank.size(); ++r) {
      by_node[static_cast<std::size_t>(step_.node_of_rank[r])].push_back(static_cast<std::int32_t>(r));
    }
    for (std::size_t n = 0; n < step_.nodes.size(); ++n) {
      hosts += (n == 0 ? "" : ",") + step_.nodes[n];
      ppn += (n == 0 ? "" : ";") + ranks_text(by_node[n]);
    }
    char* node_map = nullptr;
    char* proc_map = nullptr;
    if (PMIx_generate_regex(hosts.c_str(), &node_map) != PMIX_SUCCESS ||
        PMIx_generate_ppn(ppn.c_str(), &proc_map) != PMIX_SUCCESS) {
      return make_error(ErrorCode::kInternal, "PMIx: cannot encode the node map of " + hosts);
    }
    const std::string peers = ranks_text(step_.local_ranks);
    const std::string& hostname = step_.nodes[static_cast<std::size_t>(step_.node_index)];
    const std::uint32_t zero = 0;
    pmix_rank_t leader = step_.local_ranks.empty() ? 0 : static_cast<pmix_rank_t>(step_.local_ranks.front());
    std::vector<pmix_info_t> info(14 + size);
    std::size_t i = 0;
    PMIX_INFO_LOAD(&info[i++], PMIX_UNIV_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_MAX_PROCS, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_JOBID, step_.nspace.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_NUM_NODES, &nnodes, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_NODE_MAP, node_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[i++], PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCAL_SIZE, &local, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCAL_PEERS, peers.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&info[i++], PMIX_NODEID, &node, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_HOSTNAME, hostname.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_NSDIR, dir_.c_str(), PMIX_STRING);
    // Each rank's own data: where it runs, its rank there.
    std::vector<std::uint16_t> next_local(step_.nodes.size(), 0);
    for (std::uint32_t r = 0; r < size; ++r) {
      const auto n = static_cast<std::size_t>(step_.node_of_rank[r]);
      const std::uint16_t local_rank = next_local[n]++;
      const auto node_id = static_cast<std::uint32_t>(n);
      const pmix_rank_t rank = r;
      pmix_data_array_t* array = nullptr;
      PMIX_DATA_ARRAY_CREATE(array, 5, PMIX_INFO);
      auto* items = static_cast<pmix_info_t*>(array->array);
      PMIX_INFO_LOAD(&items[0], PMIX_RANK, &rank, PMIX_PROC_RANK);
      PMIX_INFO_LOAD(&items[1], PMIX_LOCAL_RANK, &local_rank, PMIX_UINT16);
      PMIX_INFO_LOAD(&items[2], PMIX_NODE_RANK, &local_rank, PMIX_UINT16);
      PMIX_INFO_LOAD(&items[3], PMIX_NODEID, &node_id, PMIX_UINT32);
      PMIX_INFO_LOAD(&items[4], PMIX_HOSTNAME, step_.nodes[n].c_str(), PMIX_STRING);
      PMIX_INFO_LOAD(&info[i++], PMIX_PROC_DATA, array, PMIX_DATA_ARRAY);
      PMIX_DATA_ARRAY_FREE(array);
    }
    Completion c;
    const pmix_status_t rc = c.wait(PMIx_server_register_nspace(step_.nspace.c_str(), static_cast<int>(local),
                                                                info.data(), i, Completion::callback, &c));
    for (std::size_t k = 0; k < i; ++k) PMIX_INFO_DESTRUCT(&info[k]);
    std::free(node_map);
    std::free(proc_map);
    if (rc != PMIX_SUCCESS) return std::unexpected(pmix_error("registering the step", rc));
    return ok_status();
  }

  Status register_task(std::size_t local) {
    pmix_proc_t proc;
    PMIX_PROC_LOAD(&proc, step_.nspace.c_str(), static_cast<pmix_rank_t>(step_.local_ranks[local]));
    Completion c;
    const pmix_status_t rc =
        c.wait(PMIx_server_register_client(&proc, ::getuid(), ::getgid(), nullptr, Completion::callback, &c));
    if (rc != PMIX_SUCCESS)
      return std::unexpected(pmix_error("registering task " + std::to_string(step_.local_ranks[local]), rc));
    char** env = nullptr;
    const pmix_status_t forked = PMIx_server_setup_fork(&proc, &env);
    if (forked != PMIX_SUCCESS)
      return std::unexpected(
          pmix_error("setting up task " + std::to_string(step_.local_ranks[local]), forked));
    std::vector<std::pair<std::string, std::string>> vars;
    for (char** e = env; e != nullptr && *e != nullptr; ++e) {
      const std::string entry = *e;
      const std::size_t eq = entry.find('=');
      if (eq != std::string::npos) vars.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
      std::free(*e);
    }
    std::free(env);
    env_.push_back(std::move(vars));
    return ok_status();
  }

  PmixStep step_;
  std::string dir_;
  bool initialised_ = false;
  Handoff handoff_;
  std::vector<std::vector<std::pair<std::string, std::string>>> env_;
  std::optional<Handoff::Fence> in_flight_;
  std::int64_t number_ = 1;
  std::optional<std::string> failure_;
  bool abort_taken_ = false;
};

}  // namespace

Result<std::unique_ptr<StepPmi>> open_pmix_server(const PmixStep& step) {
  // The rendezvous and the library's shared store: the job's user's alone.
  const char* tmp = std::getenv("TMPDIR");
  std::string dir_template = std::string(tmp != nullptr && tmp[0] == '/' ? tmp : "/tmp") + "/fairway-pmix." +
                             std::to_string(::getpid()) + ".XXXXXX";
  if (::mkdtemp(dir_template.data()) == nullptr) {
    return make_error(ErrorCode::kIo,
                      "PMIx: cannot make its directory " + dir_template + ": " + std::strerror(errno));
  }
  auto server = std::make_unique<PmixServer>(step, dir_template);
  FAIRWAY_TRY(server->start());
  return std::unique_ptr<StepPmi>(std::move(server));
}

#endif

}  // namespace fairway::agent
