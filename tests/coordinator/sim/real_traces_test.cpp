// The seven traces in the shared folder, read whole. Counts were measured independently
// with zcat | awk (traces/SOURCES.md in the shared folder has the data-line counts).
#include <gtest/gtest.h>

#include <string>

#include "coordinator/sim/workload.h"

namespace fairway::sim {
namespace {

struct TraceCase {
  std::string file;
  std::size_t jobs;      // kept jobs
  std::int64_t skipped;  // runtime < 0 or no processor count
  std::int32_t max_procs;
  std::int32_t max_nodes;
};

std::string trace_path(const std::string& file) {
  return std::string(FAIRWAY_SHARED_DIR) + "/traces/" + file;
}

class RealTraceTest : public ::testing::TestWithParam<TraceCase> {};

TEST_P(RealTraceTest, LoadsWithExpectedCounts) {
  const TraceCase& c = GetParam();
  const std::string path = trace_path(c.file);
  ASSERT_EQ(workload_format_from_path(path).value(), WorkloadFormat::kSwf);
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->jobs.size(), c.jobs);
  EXPECT_EQ(w->skipped, c.skipped);
  EXPECT_EQ(w->max_procs, c.max_procs);
  EXPECT_EQ(w->max_nodes, c.max_nodes);
  // Data lines (SOURCES.md) = kept + skipped, and every kept job is sane and in order.
  for (std::size_t i = 0; i < w->jobs.size(); ++i) {
    const WorkloadJob& j = w->jobs[i];
    ASSERT_GE(j.runtime, Duration::seconds(0));
    ASSERT_GE(j.spec.resources.cores, 1);
    ASSERT_GE(j.spec.time_limit, Duration::seconds(0));
    if (i > 0) {
      const JobSpec& p = w->jobs[i - 1].spec;
      ASSERT_TRUE(p.submit_time < j.spec.submit_time ||
                  (p.submit_time == j.spec.submit_time && p.id < j.spec.id));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTraceTest,
                         ::testing::Values(TraceCase{"HPC2N-2002-2.2-cln.swf.gz", 202871, 0, 240, 240},
                                           TraceCase{"SDSC-SP2-1998-4.2-cln.swf.gz", 54044, 5671, 128, 128},
                                           TraceCase{"CTC-SP2-1996-3.1-cln.swf.gz", 77222, 0, 338, 338},
                                           TraceCase{"KTH-SP2-1996-2.1-cln.swf.gz", 28475, 1, 100, 100},
                                           TraceCase{"LLNL-Thunder-2007-1.1-cln.swf.gz", 118791, 2248, 4008,
                                                     1002},
                                           TraceCase{"lublin_256.swf.gz", 10000, 0, 0, 256},
                                           TraceCase{"lublin_256_new2.swf.gz", 10000, 0, 0, 256}),
                         [](const ::testing::TestParamInfo<TraceCase>& param_info) {
                           const std::string& f = param_info.param.file;
                           std::string name = f.substr(0, f.find_first_of("-."));
                           for (char& c : name)
                             c = c == '_' ? 'x' : c;  // gtest names: letters, digits, '_' only
                           return name + "_" + std::to_string(param_info.index);
                         });

TEST(RealTrace, Hpc2nFirstJobMapping) {
  // "11 342072 32 43306 32 43307 -1 32 43200 -1 1 4 1 -1 -1 1 -1 -1"
  const auto w = read_swf(trace_path("HPC2N-2002-2.2-cln.swf.gz"));
  ASSERT_TRUE(w.has_value()) << w.error().message;
  const WorkloadJob& j = w->jobs.front();
  EXPECT_EQ(j.spec.id, JobId(11));
  EXPECT_EQ(j.spec.submit_time, Time::from_seconds(342072));
  EXPECT_EQ(j.runtime, Duration::seconds(43306));  // past its 43200 s limit: the log rules
  EXPECT_EQ(j.spec.time_limit, Duration::seconds(43200));
  EXPECT_EQ(j.spec.resources, (ResourceRequest{0, 32, 0, ""}));
  EXPECT_EQ(j.spec.user, "u4");
  EXPECT_EQ(j.spec.account, "g1");
  EXPECT_EQ(j.line, 32);
}

TEST(RealTrace, SdscKeepsZeroRuntimeAndFallsBackToRuntimeLimit) {
  const auto w = read_swf(trace_path("SDSC-SP2-1998-4.2-cln.swf.gz"));
  ASSERT_TRUE(w.has_value()) << w.error().message;
  std::int64_t zero_runtime = 0;
  std::int64_t overran = 0;
  for (const auto& j : w->jobs) {
    zero_runtime += j.runtime == Duration::seconds(0) ? 1 : 0;
    overran += j.runtime > j.spec.time_limit ? 1 : 0;
  }
  EXPECT_EQ(zero_runtime, 10);  // SOURCES.md: "10 jobs have run time 0"
  EXPECT_EQ(overran, 4134);     // SOURCES.md: "4,134 ran longer than requested"
}

TEST(RealTrace, CtcUsesAllocatedProcessorsAndUnknownGroup) {
  const auto w = read_swf(trace_path("CTC-SP2-1996-3.1-cln.swf.gz"));
  ASSERT_TRUE(w.has_value()) << w.error().message;
  for (const auto& j : w->jobs) {
    ASSERT_EQ(j.spec.account, "unknown");  // field 13 is -1 for every CTC job
  }
}

}  // namespace
}  // namespace fairway::sim
