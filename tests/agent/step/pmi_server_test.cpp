// A node's PMI server driven over its real sockets, in one process: the commands MPICH's
// ranks send (PMI-1) and a PMI-2 client's, puts exchanged at a fence through srun (played
// here by the test), and a task that misbehaves.
#include "agent/step/pmi_server.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include "shared/wire/step_exchange.h"

namespace fairway::agent {
namespace {

class PmiServerTest : public ::testing::Test {
 protected:
  // Two nodes of two ranks (block); this node is node 1: ranks 2 and 3.
  void SetUp() override {
    server_.emplace(PmiJob{"77.0", {0, 0, 1, 1}, {2, 3}});
    ASSERT_TRUE(server_->open());
    for (std::int32_t l = 0; l < 2; ++l) {
      for (const auto& [k, v] : server_->task_environment(l)) {
        if (k == "PMI_FD") task_fd_[l] = std::stoi(v);
        env_[l][k] = v;
      }
    }
  }
  void TearDown() override {
    server_.reset();  // closes the task ends too (never forked here)
  }

  // Task `l` sends `text`; the server reads it; the reply (if any within 200 ms) comes back.
  std::string ask(std::int32_t l, const std::string& text) {
    EXPECT_EQ(::write(task_fd_[l], text.data(), text.size()), static_cast<ssize_t>(text.size()));
    server_->on_readable(l);
    return answer(l);
  }
  std::string answer(std::int32_t l) {
    pollfd p{task_fd_[l], POLLIN, 0};
    if (::poll(&p, 1, 200) != 1) return "";
    char buf[4096];
    const ssize_t n = ::read(task_fd_[l], buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
  }

  std::optional<PmiServer> server_;
  int task_fd_[2] = {-1, -1};
  std::map<std::string, std::string> env_[2];
};

TEST_F(PmiServerTest, EachTaskIsToldItsSocketRankAndJobAsSlurmsPmi2Does) {
  EXPECT_EQ(env_[1]["PMI_RANK"], "3");
  EXPECT_EQ(env_[1]["PMI_SIZE"], "4");
  EXPECT_EQ(env_[1]["PMI_JOBID"], "77.0");
  EXPECT_EQ(env_[1]["SLURM_MPI_TYPE"], "pmi2");
  EXPECT_NE(task_fd_[0], task_fd_[1]);
}

TEST_F(PmiServerTest, MpichsPmiOneConversationWithAFenceThroughSrun) {
  EXPECT_EQ(ask(0, "cmd=init pmi_version=1 pmi_subversion=1\n"),
            "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
  EXPECT_EQ(ask(0, "cmd=get_maxes\n"), "cmd=maxes rc=0 kvsname_max=256 keylen_max=256 vallen_max=1024\n");
  EXPECT_EQ(ask(0, "cmd=get_my_kvsname\n"), "cmd=my_kvsname rc=0 kvsname=77.0\n");
  EXPECT_EQ(ask(0, "cmd=get_universe_size\n"), "cmd=universe_size rc=0 size=4\n");
  EXPECT_EQ(ask(0, "cmd=get kvsname=77.0 key=PMI_process_mapping\n"),
            "cmd=get_result rc=0 msg=success value=(vector,(0,2,2))\n");
  EXPECT_EQ(ask(0, "cmd=put kvsname=77.0 key=P2-card value=host-b:2\n"), "cmd=put_result rc=0 msg=success\n");
  // Before the fence, no node has anything of another's.
  (void)ask(1, "cmd=init pmi_version=1 pmi_subversion=1\n");
  EXPECT_EQ(ask(1, "cmd=get kvsname=77.0 key=P0-card\n"), "cmd=get_result rc=-1 msg=key_P0-card_not_found\n");
  // Rank 2 enters the fence: not complete while rank 3 is out of it.
  EXPECT_EQ(ask(0, "cmd=barrier_in\n"), "");
  EXPECT_FALSE(server_->take_fence());
  EXPECT_EQ(ask(1, "cmd=put kvsname=77.0 key=P3-card value=host-b:3\ncmd=barrier_in\n"),
            "cmd=put_result rc=0 msg=success\n");
  auto fence = server_->take_fence();
  ASSERT_TRUE(fence);
  EXPECT_EQ(fence->first, 1);
  EXPECT_EQ(*wire::decode_fence_pairs(fence->second), (std::vector<std::pair<std::string, std::string>>{
                                                          {"P2-card", "host-b:2"}, {"P3-card", "host-b:3"}}));
  EXPECT_FALSE(server_->take_fence()) << "sent once";
  // srun answers with both nodes' blobs: both ranks leave the barrier and see node 0's keys.
  const std::string node0 = wire::encode_fence_pairs({{"P0-card", "host-a:0"}, {"P1-card", "host-a:1"}});
  server_->fence_done(1, wire::join_fence_blobs({node0, fence->second}));
  EXPECT_EQ(answer(0), "cmd=barrier_out rc=0\n");
  EXPECT_EQ(answer(1), "cmd=barrier_out rc=0\n");
  EXPECT_EQ(ask(1, "cmd=get kvsname=77.0 key=P0-card\n"), "cmd=get_result rc=0 msg=success value=host-a:0\n");
  EXPECT_EQ(ask(0, "cmd=get kvsname=77.0 key=P3-card\n"), "cmd=get_result rc=0 msg=success value=host-b:3\n");
  EXPECT_EQ(ask(0, "cmd=finalize\n"), "cmd=finalize_ack rc=0\n");
  EXPECT_FALSE(server_->take_abort());
}

TEST_F(PmiServerTest, APmiTwoClientSwitchesFormatAfterInit) {
  EXPECT_EQ(ask(0, "cmd=init pmi_version=2 pmi_subversion=0\n"),
            "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n");
  auto v2 = [](const std::string& text) {
    std::string length = std::to_string(text.size());
    length.resize(6, ' ');
    return length + text;
  };
  const std::string init = ask(0, v2("cmd=fullinit;pmijobid=77.0;pmirank=2;threaded=FALSE;"));
  EXPECT_NE(init.find("cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=2;size=4;appnum=0;"),
            std::string::npos)
      << init;
  EXPECT_NE(ask(0, v2("cmd=job-getid;")).find("jobid=77.0;"), std::string::npos);
  EXPECT_NE(
      ask(0, v2("cmd=info-getjobattr;key=PMI_process_mapping;")).find("found=TRUE;value=(vector,(0,2,2));"),
      std::string::npos);
  // A node attribute waited for is answered when another task puts it.
  EXPECT_EQ(ask(0, v2("cmd=info-getnodeattr;key=shm;wait=TRUE;")), "");
  EXPECT_EQ(ask(1, "cmd=init pmi_version=2 pmi_subversion=0\n").substr(0, 20), "cmd=response_to_init");
  EXPECT_NE(ask(1, v2("cmd=info-putnodeattr;key=shm;value=seg;;1;")).find("rc=0"), std::string::npos);
  EXPECT_NE(answer(0).find("found=TRUE;value=seg;;1;"), std::string::npos);
  EXPECT_NE(ask(0, v2("cmd=kvs-put;key=k2;value=v2;")).find("cmd=kvs-put-response;rc=0;"), std::string::npos);
  EXPECT_EQ(ask(0, v2("cmd=kvs-fence;")), "");
  EXPECT_EQ(ask(1, v2("cmd=kvs-fence;")), "");
  auto fence = server_->take_fence();
  ASSERT_TRUE(fence);
  server_->fence_done(1, wire::join_fence_blobs({wire::encode_fence_pairs({{"k0", "v0"}}), fence->second}));
  EXPECT_NE(answer(0).find("cmd=kvs-fence-response;rc=0;"), std::string::npos);
  EXPECT_NE(answer(1).find("cmd=kvs-fence-response;rc=0;"), std::string::npos);
  EXPECT_NE(ask(1, v2("cmd=kvs-get;jobid=77.0;srcid=-1;key=k0;")).find("found=TRUE;value=v0;"),
            std::string::npos);
  EXPECT_NE(ask(1, v2("cmd=kvs-get;jobid=77.0;srcid=-1;key=nope;")).find("found=FALSE"), std::string::npos);
  EXPECT_NE(ask(1, v2("cmd=name-publish;name=x;port=y;")).find("rc=-1"), std::string::npos);
}

TEST_F(PmiServerTest, AFailedFenceReachesEveryTaskInItAndEndsTheStep) {
  (void)ask(0, "cmd=init pmi_version=1 pmi_subversion=1\n");
  (void)ask(1, "cmd=init pmi_version=1 pmi_subversion=1\n");
  (void)ask(0, "cmd=barrier_in\n");
  (void)ask(1, "cmd=barrier_in\n");
  ASSERT_TRUE(server_->take_fence());
  server_->fence_done(-1, "fence 1 from node 0: the node already entered it");
  EXPECT_EQ(answer(0), "cmd=barrier_out rc=-1 msg=fence_failed\n");
  EXPECT_EQ(answer(1), "cmd=barrier_out rc=-1 msg=fence_failed\n");
  auto why = server_->take_abort();
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("a PMI fence failed"), std::string::npos);
}

TEST_F(PmiServerTest, GarbageOrOversizedPutsDropTheTaskNotTheServer) {
  EXPECT_EQ(ask(0, "cmd=put kvsname=77.0 key=k value=" + std::string(2000, 'v') + "\n"),
            "cmd=put_result rc=-1 msg=value_of_2000_bytes_(at_most_1024)\n");
  EXPECT_EQ(ask(0, "hello there\n"), "");
  auto why = server_->take_abort();
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("task 2: PMI: a command must start with cmd="), std::string::npos) << *why;
  EXPECT_EQ(server_->fds()[0], -1);
  // The other task goes on; a fence no longer waits for the dropped one.
  EXPECT_EQ(ask(1, "cmd=barrier_in\n"), "");
  EXPECT_TRUE(server_->take_fence());
}

TEST_F(PmiServerTest, AnAbortIsReportedOnce) {
  (void)ask(1, "cmd=abort exitcode=3\n");
  auto why = server_->take_abort();
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "task 3 called PMI abort (exit code 3)");
  EXPECT_FALSE(server_->take_abort());
}

}  // namespace
}  // namespace fairway::agent
