// A store operation that fails anywhere in a job's life (issue 14): the n-th begin, write or
// commit of a scenario fails, for every n. Whatever fails, the turn answers nothing (or, for
// a submit's own insert, refuses that submit), the store holds exactly what earlier turns
// acknowledged, the restarted service agrees with the store, and the retried request (as a
// client or agent resends it) takes effect once.
#include <gtest/gtest.h>

#include <functional>

#include "coordinator/daemon/coordinator_service.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

// More than the scenario's store operations: the largest n fails none.
constexpr int kLargest = 40;

class EveryStoreOperation : public test_support::ServiceTest, public ::testing::WithParamInterface<int> {
 protected:
  std::vector<wire::Message> turn() {
    std::vector<wire::Message> out;
    for (const Outgoing& o : service_->end_turn(t_)) {
      if (auto m = wire::decode(o.frame)) out.push_back(*m);
    }
    return out;
  }
  template <typename T>
  static const T* find(const std::vector<wire::Message>& out) {
    for (const auto& m : out) {
      if (const auto* x = std::get_if<T>(&m)) return x;
    }
    return nullptr;
  }
  void client(const wire::Message& m) {
    service_->on_client_frame("c", wire::encode(m), t_, net::PeerCredentials{0, 0, 1});
  }
  // The agent (re)registers with what it still runs: the job that started, until it ends.
  void agent_registers() {
    std::vector<wire::RunningJob> running;
    if (a_running_) running.push_back({a_, {0, 1, 2, 3}, {}, t_, 1});
    service_->on_agent_frame(
        "n1", wire::encode(wire::AgentRegister{"n1", "test", NodeTopology::uniform("n1", 1, 4), running, ""}),
        t_, "n1");
  }
  void submit(const std::string& token, bool hold) {
    wire::SubmitRequest r;
    r.client_token = token;
    r.spec.resources.cores = 4;
    r.spec.hold = hold;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    client(r);
  }

  // What the store holds, by client token (ids may differ from run to run: a failed
  // submit's id can be given again), and the node's drain.
  std::string stored() const {
    std::string text;
    for (const auto& row : select_on(dir_ + "/" + JobStore::kFileName,
                                     "SELECT coalesce(client_token, '-'), state FROM jobs ORDER BY id")) {
      text += row[0] + "=" + row[1] + " ";
    }
    for (const auto& row :
         select_on(dir_ + "/" + JobStore::kFileName, "SELECT node, drained FROM node_admin")) {
      text += row[0] + (row[1] == "1" ? " drained" : " up");
    }
    return text;
  }
  // The restarted service's view of each stored job agrees with its row.
  void expect_memory_matches_store() const {
    for (const auto& row : select_on(dir_ + "/" + JobStore::kFileName, "SELECT id, state FROM jobs")) {
      const JobRecord* rec = service_->scheduler().job(JobId(std::stoull(row[0])));
      if (rec == nullptr) {
        EXPECT_TRUE(row[1] == "completed" || row[1] == "cancelled")
            << "job " << row[0] << " stored " << row[1] << " is not in memory";
        continue;
      }
      EXPECT_EQ(std::string(to_string(rec->state == JobState::kBlocked ? JobState::kPending : rec->state)),
                row[1])
          << "job " << row[0];
    }
  }

  struct Step {
    const char* name;
    std::function<void()> send;                                    // the request, as (re)sent
    std::function<bool(const std::vector<wire::Message>&)> acked;  // its answer came
    const char* stored_after;                                      // what the store then holds
  };

  JobId a_, b_;
  bool a_running_ = false;
};

TEST_P(EveryStoreOperation, FailsTheTurnAndLosesNothingAcknowledged) {
  service_->fail_store_operation_for_test(GetParam());
  const std::vector<Step> steps = {
      {"register", [&] { agent_registers(); }, [](const auto&) { return true; }, ""},
      {"submit A (starts)", [&] { submit("A", false); },
       [&](const auto& out) {
         const auto* r = find<wire::SubmitReply>(out);
         if (r != nullptr) a_ = r->job, a_running_ = true;
         return r != nullptr && find<wire::LaunchJob>(out) != nullptr;
       },
       "A=running "},
      {"submit B (held)", [&] { submit("B", true); },
       [&](const auto& out) {
         const auto* r = find<wire::SubmitReply>(out);
         if (r != nullptr) b_ = r->job;
         return r != nullptr;
       },
       "A=running B=held "},
      {"A completes",
       [&] {
         wire::JobStatusUpdate done;
         done.node = "n1";
         done.seq = 1;
         done.job = a_;
         done.state = JobState::kCompleted;
         done.time = t_;
         service_->on_agent_frame("n1", wire::encode(done), t_, "n1");
       },
       [&](const auto& out) {
         if (find<wire::Ack>(out) == nullptr) return false;
         a_running_ = false;
         return true;
       },
       "A=completed B=held "},
      {"cancel B",
       [&] {
         client(wire::JobControl{wire::JobAction::kCancel, {b_}, "root"});
       },
       [](const auto& out) {
         const auto* r = find<wire::JobControlReply>(out);
         return r != nullptr && !r->results.empty() && r->results[0].ok;
       },
       "A=completed B=cancelled "},
      {"drain n1",
       [&] {
         client(wire::NodeControl{wire::NodeAction::kDrain, {"n1"}, "disk", "root"});
       },
       [](const auto& out) {
         const auto* r = find<wire::NodeControlReply>(out);
         return r != nullptr && !r->results.empty() && r->results[0].ok;
       },
       "A=completed B=cancelled n1 drained"},
      {"submit C (waits)", [&] { submit("C", false); },
       [](const auto& out) { return find<wire::SubmitReply>(out) != nullptr; },
       "A=completed B=cancelled C=pending n1 drained"},
      {"resume n1 (C starts)",
       [&] {
         client(wire::NodeControl{wire::NodeAction::kResume, {"n1"}, "", "root"});
       },
       [](const auto& out) {
         const auto* r = find<wire::NodeControlReply>(out);
         return r != nullptr && !r->results.empty() && r->results[0].ok &&
                find<wire::LaunchJob>(out) != nullptr;
       },
       "A=completed B=cancelled C=running n1 up"},
  };

  bool failed_once = false;
  std::string before = stored();
  for (const Step& step : steps) {
    step.send();
    auto out = turn();
    if (!service_->failed()) {
      ASSERT_FALSE(failed_once) << "the fault is one-shot";
      failed_once = true;
      EXPECT_TRUE(out.empty()) << step.name << ": a failed turn answered";
      EXPECT_EQ(stored(), before) << step.name << ": a failed turn left part of itself in the store";
      reopen();
      expect_memory_matches_store();
      agent_registers();
      (void)turn();
      step.send();  // the client or agent, unanswered, sends it again
      out = turn();
      ASSERT_TRUE(service_->failed()) << service_->failed().error().message;
    } else if (!step.acked(out) && find<wire::ErrorReply>(out) != nullptr) {
      // A submit whose insert failed is refused, the rest of the turn going on: the client
      // is told, and nothing of it may be left behind.
      ASSERT_FALSE(failed_once) << "the fault is one-shot";
      failed_once = true;
      EXPECT_EQ(stored(), before) << step.name << ": a refused request left part of itself in the store";
      step.send();
      out = turn();
    }
    EXPECT_TRUE(step.acked(out)) << step.name << ": not acknowledged (operation " << GetParam() << " failed)";
    if (*step.stored_after != '\0') {
      EXPECT_EQ(stored(), step.stored_after) << step.name;
    }
    before = stored();
  }
  // The scenario holds fewer operations than the largest n tried, so every one was failed.
  if (GetParam() == kLargest) {
    EXPECT_FALSE(failed_once) << "raise kLargest: operations went untried";
  }
}

INSTANTIATE_TEST_SUITE_P(Nth, EveryStoreOperation, ::testing::Range(1, kLargest + 1));

}  // namespace
}  // namespace fairway::daemon
