// Replays every real trace through the fairway-sim binary under each plain policy, with
// the independent schedule check, and compares whole-trace figures with the cross-check.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace fairway::sim {
namespace {

namespace fs = std::filesystem;

struct Replay {
  int exit_code = -1;
  nlohmann::json summary;
};

Replay replay(const std::string& trace, const std::string& policy, const std::string& extra = "") {
  const fs::path dir = fs::temp_directory_path() /
                       ("fairway-replay-" + trace + "-" + policy + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / "summary.json";
  const std::string cmd = std::string(FAIRWAY_SIM_BINARY) + " --config " + FAIRWAY_SOURCE_DIR +
                          "/examples/sim/" + policy + ".toml --workload " + FAIRWAY_SHARED_DIR + "/traces/" +
                          trace + ".swf.gz --out " + out.string() + " --check " + extra + " > " +
                          (dir / "stdout").string() + " 2> " + (dir / "stderr").string();
  Replay r;
  const int status = std::system(cmd.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(out);
  if (f) r.summary = nlohmann::json::parse(f, nullptr, false);
  if (r.exit_code != 0) {
    std::ifstream err(dir / "stderr");
    std::string line;
    while (std::getline(err, line)) ADD_FAILURE() << trace << " " << policy << ": " << line;
  }
  fs::remove_all(dir);
  return r;
}

// SDSC SP2's queue 1 replayed as an owner tier (examples/sim/owner-preemption.toml): owner
// jobs preempt, victims are requeued and rerun, and the independent check still passes
// (every cut for a higher tier, no core held twice, every job finished once).
TEST(OwnerTierReplay, SdscQueueOnePreemptsAndPassesTheCheck) {
  Replay r = replay("SDSC-SP2-1998-4.2-cln", "owner-preemption", "--queue-partition 1=owner");
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(r.summary.is_object());
  EXPECT_EQ(r.summary["completed"], r.summary["jobs"]);
  EXPECT_GT(r.summary["preemptions"].get<std::int64_t>(), 100);
  EXPECT_EQ(r.summary["preemptions"], r.summary["requeues"]);
  // Without the mapping nothing is an owner: nothing is preempted.
  Replay plain = replay("SDSC-SP2-1998-4.2-cln", "owner-preemption");
  ASSERT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.summary["preemptions"], 0);
}

// examples/sim/expansion-guard.toml, the opt-in trade docs/policies.md reports: on the two
// traces where it meets issue 13's whole goal, the bounded slowdown falls by at least 20 %
// against EASY with the 95th-percentile and the longest wait no worse. (On four others the
// longest wait rises, which is why it is not the default.)
TEST(ExpansionGuardReplay, BeatsEasyOnKthAndSdscWithNoWorseTail) {
  for (const char* trace : {"KTH-SP2-1996-2.1-cln", "SDSC-SP2-1998-4.2-cln"}) {
    SCOPED_TRACE(trace);
    Replay easy = replay(trace, "easy");
    Replay guard = replay(trace, "expansion-guard");
    ASSERT_EQ(easy.exit_code, 0);
    ASSERT_EQ(guard.exit_code, 0);
    EXPECT_EQ(guard.summary["completed"], easy.summary["completed"]);
    EXPECT_LE(guard.summary["bsld_mean"].get<double>(), 0.8 * easy.summary["bsld_mean"].get<double>());
    EXPECT_LE(guard.summary["wait_p95_s"].get<double>(), easy.summary["wait_p95_s"].get<double>());
    EXPECT_LE(guard.summary["wait_max_s"].get<double>(), easy.summary["wait_max_s"].get<double>());
    EXPECT_NEAR(guard.summary["utilization"].get<double>(), easy.summary["utilization"].get<double>(), 0.005);
  }
}

using TraceAndPolicy = std::tuple<std::string, std::string>;
class EveryTrace : public ::testing::TestWithParam<TraceAndPolicy> {};

TEST_P(EveryTrace, ReplaysAndPassesTheIndependentCheck) {
  const auto& [trace, policy] = GetParam();
  Replay r = replay(trace, policy);
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(r.summary.is_object());
  EXPECT_EQ(r.summary["completed"], r.summary["jobs"]);
  EXPECT_EQ(r.summary["rejected"], 0);
  EXPECT_GT(r.summary["utilization"].get<double>(), 0.3);
  EXPECT_LE(r.summary["utilization"].get<double>(), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Traces, EveryTrace,
                         ::testing::Combine(::testing::Values("KTH-SP2-1996-2.1-cln", "SDSC-SP2-1998-4.2-cln",
                                                              "CTC-SP2-1996-3.1-cln", "HPC2N-2002-2.2-cln",
                                                              "LLNL-Thunder-2007-1.1-cln", "lublin_256",
                                                              "lublin_256_new2"),
                                            ::testing::Values("fcfs", "easy", "conservative")),
                         [](const auto& p) {
                           std::string name = std::get<0>(p.param) + "_" + std::get<1>(p.param);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Whole-trace figures. `reference_*` come from the independent simple simulator of the
// foundation issue; conservative agrees with it exactly. Under EASY it differs on SDSC
// and CTC, while a second independent textbook EASY (Mu'alem & Feitelson: shadow time and
// extra processors) agrees with Fairway to the decimal on all four traces, so the
// reference uses some other EASY variant; `textbook_*` pins our behaviour to the textbook.
struct Expected {
  const char* trace;
  double reference_easy_wait, reference_easy_bsld, reference_easy_util;
  double textbook_easy_wait, textbook_easy_bsld;
  double reference_cons_wait, reference_cons_bsld;
};

constexpr Expected kExpected[] = {
    {"KTH-SP2-1996-2.1-cln", 6929.8, 91.13, 0.701, 6900.6, 91.62, 8088.6, 102.56},
    {"SDSC-SP2-1998-4.2-cln", 21441.6, 97.51, 0.834, 22844.4, 103.39, 26499.0, 109.98},
    {"CTC-SP2-1996-3.1-cln", 15008.4, 53.60, 0.841, 15497.5, 55.54, 23772.5, 77.37},
    {"HPC2N-2002-2.2-cln", 11523.8, 91.96, 0.602, 11390.6, 89.93, 12428.3, 94.91},
};

void PrintTo(const Expected& e, std::ostream* os) {
  *os << e.trace;
}

class CrossCheck : public ::testing::TestWithParam<Expected> {};

TEST_P(CrossCheck, EasyMatchesTheTextbookRuleAndUtilizationTheReference) {
  const Expected& e = GetParam();
  Replay r = replay(e.trace, "easy");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NEAR(r.summary["wait_mean_s"].get<double>(), e.textbook_easy_wait, 0.1);
  EXPECT_NEAR(r.summary["bsld_mean"].get<double>(), e.textbook_easy_bsld, 0.01);
  EXPECT_NEAR(r.summary["utilization"].get<double>(), e.reference_easy_util, 0.02 * e.reference_easy_util);
}

TEST_P(CrossCheck, ConservativeMatchesTheReferenceWithinTwoPercent) {
  const Expected& e = GetParam();
  Replay r = replay(e.trace, "conservative");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NEAR(r.summary["wait_mean_s"].get<double>(), e.reference_cons_wait, 0.02 * e.reference_cons_wait);
  EXPECT_NEAR(r.summary["bsld_mean"].get<double>(), e.reference_cons_bsld, 0.02 * e.reference_cons_bsld);
}

INSTANTIATE_TEST_SUITE_P(Reference, CrossCheck, ::testing::ValuesIn(kExpected), [](const auto& p) {
  std::string name = p.param.trace;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
});

}  // namespace
}  // namespace fairway::sim
