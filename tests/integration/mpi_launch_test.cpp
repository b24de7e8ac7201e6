// MPI on a loopback cluster of two agents, launched the ways sites tell users to (issue 34):
// Open MPI's mpirun inside the job (its daemons started with srun -N1 -w NODE), MPICH's
// Hydra mpiexec (it finds the job, and with -launcher slurm), srun --mpi=pmi2 (MPICH) and
// srun --mpi=pmix (Open MPI). Each run: an allreduce over
// 4 ranks, 2 per node, each rank on a CPU of its own, the right sum, no hang. Repeated
// FAIRWAY_MPI_REPEAT times (2 by default; bench/e2e/mpi_launch.sh runs 10).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

// The two loopback nodes are one host with one name: Open MPI's shared-memory transport
// (vader) names its segments after the host and crashes when ranks of both "nodes" make
// them (it does the same under the real Slurm on twonode.sh). TCP between all ranks.
const std::string kOpenMpiOnOneHost = "export OMPI_MCA_btl=self,tcp\n";

bool exists(const std::string& path) {
  return ::access(path.c_str(), X_OK) == 0;
}

class MpiLaunch : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "runs MPI as nobody, which needs root";
    for (const char* p : {"/usr/bin/mpicc.openmpi", "/usr/bin/mpirun.openmpi", "/usr/bin/mpicc.mpich",
                          "/usr/bin/mpiexec.hydra"}) {
      if (!exists(p)) {
        GTEST_SKIP()
            << p
            << " is missing: install openmpi-bin libopenmpi-dev mpich libmpich-dev (scripts/install-deps)";
      }
    }
    if (const char* r = std::getenv("FAIRWAY_MPI_REPEAT")) repeat_ = std::max(1, std::atoi(r));
    ::chmod(dir_.c_str(), 0777);
    // The host's own topology: each agent binds its jobs to real CPUs.
    start_coordinator();
    start_agent("kb01");
    start_agent("kb02");
    ASSERT_TRUE(wait_nodes_up(2));
    std::string out;
    const std::string source = std::string(FAIRWAY_SOURCE_DIR) + "/tests/integration/mpi/allreduce.c";
    for (const auto& [cc, exe] : {std::pair{"/usr/bin/mpicc.openmpi", "allreduce-openmpi"},
                                  std::pair{"/usr/bin/mpicc.mpich", "allreduce-mpich"}}) {
      ASSERT_EQ(
          run_as({"nobody", cc, {cc, "-O1", "-o", dir_ + "/" + exe, source}, {"TMPDIR=" + dir_}, false, dir_},
                 out),
          0)
          << cc << ": " << out;
    }
  }

  // Runs `body` as a 2-node, 4-task batch script of nobody's with the Slurm commands first on
  // PATH; returns its output once it ended (failing the test if it did not end COMPLETED).
  std::string run_job(const std::string& name, const std::string& body) {
    const std::string script = dir_ + "/" + name + ".sh";
    std::ofstream(script) << "#!/bin/sh\n#SBATCH -N 2\n#SBATCH -n 4\n#SBATCH -t 5\n#SBATCH -o " << dir_ << "/"
                          << name << "-%j.out\n"
                          << body << "\necho \"ENDED AT $(date +%s.%N)\"\n";
    std::string out;
    const std::string bin = FAIRWAY_SLURM_BIN_DIR;
    EXPECT_EQ(run_as({"nobody",
                      bin + "/sbatch",
                      {"sbatch", "--parsable", "-D", dir_, script},
                      {"FAIRWAY_COORDINATOR=" + clients_ep_, "PATH=" + bin + ":/usr/bin:/bin", "USER=nobody",
                       "HOME=" + dir_, "TMPDIR=" + dir_},
                      true,
                      dir_},
                     out),
              0)
        << out;
    const auto submitted = std::chrono::system_clock::now();
    const JobId id(std::stoull(out));
    auto v = wait_state(
        id, [](JobState s) { return is_terminal(s); }, std::chrono::seconds(120));

    const std::string printed = read_file(dir_ + "/" + name + "-" + std::to_string(id.value()) + ".out");
    // For bench/e2e/mpi_launch.sh: from sbatch to the program's end, as the script saw it
    // (the same figure is taken on Slurm).
    if (const auto at = printed.find("ENDED AT "); at != std::string::npos) {
      const double ended = std::stod(printed.substr(at + 9));
      const double started = std::chrono::duration<double>(submitted.time_since_epoch()).count();
      std::cout << name << ": sbatch to end " << ended - started << " s\n";
    }
    EXPECT_TRUE(v && v->state == JobState::kCompleted)
        << name << " " << (v ? to_string(v->state) : "did not end") << ":\n"
        << printed;
    if (v && !is_terminal(v->state)) {
      std::string ignored;
      (void)run_cli_as("nobody", {"cancel", std::to_string(id.value())}, ignored);
    }
    return printed;
  }

  // Every rank printed the right sum; 2 ranks on each node; each rank on one CPU, none
  // shared on a node.
  void expect_allreduce(const std::string& how, const std::string& printed) {
    static const std::regex line(R"(RANK (\d+) SIZE 4 NODE (\S+) CPUS (\S+) SUM 10 OK)");
    std::map<std::string, std::set<std::string>> cpus_by_node;
    std::set<int> ranks;
    for (auto it = std::sregex_iterator(printed.begin(), printed.end(), line); it != std::sregex_iterator();
         ++it) {
      ranks.insert(std::stoi((*it)[1]));
      const std::string cpus = (*it)[3];
      EXPECT_EQ(cpus.find(','), std::string::npos)
          << how << ": rank " << (*it)[1] << " may run on CPUs " << cpus;
      cpus_by_node[(*it)[2]].insert(cpus);
    }
    EXPECT_EQ(ranks, (std::set<int>{0, 1, 2, 3})) << how << ":\n" << printed;
    ASSERT_EQ(cpus_by_node.size(), 2u) << how << ":\n" << printed;
    for (const auto& [node, cpus] : cpus_by_node) {
      EXPECT_EQ(cpus.size(), 2u) << how << ": the ranks on " << node << " share a CPU or are not 2:\n"
                                 << printed;
    }
  }

  int repeat_ = 2;
};

TEST_F(MpiLaunch, OpenMpisMpirunInsideTheJob) {
  for (int i = 0; i < repeat_; ++i) {
    expect_allreduce("mpirun, run " + std::to_string(i),
                     run_job("ompi-mpirun-" + std::to_string(i),
                             kOpenMpiOnOneHost + "mpirun.openmpi --bind-to core ./allreduce-openmpi"));
  }
}

TEST_F(MpiLaunch, MpichsHydraFindsTheJobAndUsesSrun) {
  for (int i = 0; i < repeat_; ++i) {
    expect_allreduce(
        "mpiexec, run " + std::to_string(i),
        run_job("hydra-auto-" + std::to_string(i), "mpiexec.hydra -bind-to core ./allreduce-mpich"));
    expect_allreduce("mpiexec -launcher slurm, run " + std::to_string(i),
                     run_job("hydra-slurm-" + std::to_string(i),
                             "mpiexec.hydra -launcher slurm -bind-to core ./allreduce-mpich"));
  }
}

// Direct launch: srun's relays serve PMI to MPICH's ranks (Debian's MPICH speaks PMI-1 over
// PMI_FD), their business cards exchanged between the two nodes through srun at each fence.
TEST_F(MpiLaunch, MpichBySrunWithPmi2) {
  for (int i = 0; i < repeat_; ++i) {
    expect_allreduce("srun --mpi=pmi2, run " + std::to_string(i),
                     run_job("srun-pmi2-" + std::to_string(i), "srun --mpi=pmi2 ./allreduce-mpich"));
  }
}

// Open MPI's direct launch: each node's relay runs an OpenPMIx server for its ranks, their
// fences exchanged between the nodes through srun.
TEST_F(MpiLaunch, OpenMpiBySrunWithPmix) {
#if !FAIRWAY_HAVE_PMIX
  GTEST_SKIP()
      << "fairway-step was built without OpenPMIx: install libpmix-dev (scripts/install-deps) and rebuild";
#endif
  for (int i = 0; i < repeat_; ++i) {
    expect_allreduce(
        "srun --mpi=pmix, run " + std::to_string(i),
        run_job("srun-pmix-" + std::to_string(i), kOpenMpiOnOneHost + "srun --mpi=pmix ./allreduce-openmpi"));
  }
}

}  // namespace
}  // namespace fairway::integration
