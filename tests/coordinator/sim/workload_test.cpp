#include "coordinator/sim/workload.h"
#include "temp_dir_test_base.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fairway::sim {
namespace {

namespace fs = std::filesystem;

class WorkloadTest : public TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) { return write_file(name, text); }
  std::string write_gz(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    gzFile f = gzopen(path.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    EXPECT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
    gzclose(f);
    return path;
  }
};

// An 18-field SWF job line from the fields the mapping uses; the rest are -1.
std::string swf(long id, long submit, long runtime, long procs, long req_procs, long req_time, long user,
                long group) {
  return std::to_string(id) + " " + std::to_string(submit) + " -1 " + std::to_string(runtime) + " " +
         std::to_string(procs) + " -1 -1 " + std::to_string(req_procs) + " " + std::to_string(req_time) +
         " -1 1 " + std::to_string(user) + " " + std::to_string(group) + " -1 -1 -1 -1 -1\n";
}

// ---------------------------------------------------------------- format selection

TEST(WorkloadFormat, FromPath) {
  EXPECT_EQ(workload_format_from_path("a/b.swf").value(), WorkloadFormat::kSwf);
  EXPECT_EQ(workload_format_from_path("HPC2N.swf.gz").value(), WorkloadFormat::kSwf);
  EXPECT_EQ(workload_format_from_path("w.jsonl").value(), WorkloadFormat::kJsonl);
  for (const char* bad : {"w.json", "trace.gz", "trace", "x.swf.bz2", "x.jsonl.gz"}) {
    const auto r = workload_format_from_path(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_NE(r.error().message.find(bad), std::string::npos) << r.error().message;
  }
}

TEST(WorkloadFormat, Parse) {
  EXPECT_EQ(parse_workload_format("swf").value(), WorkloadFormat::kSwf);
  EXPECT_EQ(parse_workload_format("jsonl").value(), WorkloadFormat::kJsonl);
  const auto r = parse_workload_format("csv");
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("csv"), std::string::npos);
}

// ---------------------------------------------------------------- SWF

// Field 10 (requested memory, KB per processor) wins over field 7 (used); both may be
// fractional; -1 is unknown.
TEST_F(WorkloadTest, SwfMemoryFieldsBecomePerCoreMemory) {
  const std::string path = write("m.swf",
                                 "1 0 -1 60 2 -1 25600 2 60 819200 1 1 1 -1 -1 1 -1 -1\n"
                                 "2 0 -1 60 2 -1 1536.5 2 60 -1 1 1 1 -1 -1 1 -1 -1\n"
                                 "3 0 -1 60 2 -1 -1 2 60 -1 1 1 1 -1 -1 1 -1 -1\n");
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 3u);
  EXPECT_EQ(w->jobs[0].spec.resources.memory_per_cpu_mb, 800);
  EXPECT_EQ(w->jobs[1].spec.resources.memory_per_cpu_mb, 2) << "1536.5 KB rounds up to 2 MiB";
  EXPECT_EQ(w->jobs[2].spec.resources.memory_per_cpu_mb, 0);
}

TEST_F(WorkloadTest, SwfMapsFields) {
  const std::string path =
      write("t.swf", "; Version: 2.2\n; MaxNodes: 64\n; MaxProcs: 128\n" +
                         swf(7, 100, 3600, 16, 32, 7200, 4, 2) +  // field 5 wins over field 8
                         swf(8, 100, 50, -1, 8, -1, -1, -1) +     // fallbacks: field 8, runtime
                         swf(9, 200, 0, 1, -1, 60, 12, 3));       // runtime 0 is kept
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->max_procs, 128);
  EXPECT_EQ(w->max_nodes, 64);
  EXPECT_EQ(w->skipped, 0);
  ASSERT_EQ(w->jobs.size(), 3u);

  const WorkloadJob& a = w->jobs[0];
  EXPECT_EQ(a.spec.id, JobId(7));
  EXPECT_EQ(a.spec.submit_time, Time::from_seconds(100));
  EXPECT_EQ(a.runtime, Duration::seconds(3600));
  EXPECT_EQ(a.spec.time_limit, Duration::seconds(7200));
  EXPECT_EQ(a.spec.user, "u4");
  EXPECT_EQ(a.spec.account, "g2");
  EXPECT_EQ(a.spec.partition, "");
  EXPECT_EQ(a.spec.qos, "");
  EXPECT_EQ(a.spec.resources, (ResourceRequest{0, 16, 0, ""}));
  EXPECT_EQ(a.line, 4);

  const WorkloadJob& b = w->jobs[1];
  EXPECT_EQ(b.spec.resources.cores, 8);
  EXPECT_EQ(b.spec.time_limit, Duration::seconds(50));
  EXPECT_EQ(b.spec.user, "unknown");
  EXPECT_EQ(b.spec.account, "unknown");

  const WorkloadJob& c = w->jobs[2];
  EXPECT_EQ(c.runtime, Duration::seconds(0));
  EXPECT_EQ(c.spec.time_limit, Duration::seconds(60));
  EXPECT_EQ(c.spec.user, "u12");
}

TEST_F(WorkloadTest, SwfQueueNumbersBecomePartitionsOnRequest) {
  std::string line3 = swf(3, 20, 10, 1, 1, 60, 1, 1);
  line3.replace(line3.find(" -1 -1 -1 -1 -1\n"), 15, " -1 4 -1 -1 -1\n");  // field 15: queue 4
  std::string line2 = swf(2, 10, 10, 1, 1, 60, 1, 1);
  line2.replace(line2.find(" -1 -1 -1 -1 -1\n"), 15, " -1 2 -1 -1 -1\n");
  auto w = read_swf(write("q.swf", swf(1, 0, 10, 1, 1, 60, 1, 1) + line2 + line3));
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->jobs[0].swf_queue, -1);
  EXPECT_EQ(w->jobs[1].swf_queue, 2);
  EXPECT_EQ(w->jobs[2].swf_queue, 4);
  std::vector<PartitionConfig> parts(2);
  parts[0].name = "batch";
  parts[1].name = "owner";
  ASSERT_TRUE(assign_queue_partitions(*w, {"4=owner"}, parts));
  EXPECT_EQ(w->jobs[0].spec.partition, "");
  EXPECT_EQ(w->jobs[1].spec.partition, "");
  EXPECT_EQ(w->jobs[2].spec.partition, "owner");
  for (const auto& [rule, says] :
       {std::pair{"4=nope", "partition 'nope' is not in the config"},
        std::pair{"x=owner", "expected QUEUE=PARTITION"}, std::pair{"owner", "expected QUEUE=PARTITION"},
        std::pair{"-1=owner", "expected QUEUE=PARTITION"}}) {
    auto st = assign_queue_partitions(*w, {rule}, parts);
    ASSERT_FALSE(st) << rule;
    EXPECT_NE(st.error().message.find(says), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find(rule), std::string::npos) << st.error().message;
  }
  EXPECT_FALSE(assign_queue_partitions(*w, {"4=owner", "4=batch"}, parts));
}

TEST_F(WorkloadTest, SwfSkipsJobsWithoutWork) {
  const std::string path = write("t.swf", swf(1, 0, -1, 4, 4, 60, 1, 1) +         // cancelled before start
                                              swf(2, -1, -1, -1, -1, -1, 1, 1) +  // LLNL style: nothing known
                                              swf(3, 10, 5, -1, -1, 60, 1, 1) +   // no processor count
                                              swf(4, 10, 5, 0, 0, 60, 1, 1) +     // zero processors
                                              swf(5, 20, 5, 2, -1, 60, 1, 1));
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->skipped, 4);
  ASSERT_EQ(w->jobs.size(), 1u);
  EXPECT_EQ(w->jobs[0].spec.id, JobId(5));
  EXPECT_EQ(w->jobs[0].line, 5);
}

TEST_F(WorkloadTest, SwfSortsBySubmitThenId) {
  const std::string path = write("t.swf", swf(30, 50, 1, 1, 1, 1, 1, 1) + swf(20, 50, 1, 1, 1, 1, 1, 1) +
                                              swf(10, 60, 1, 1, 1, 1, 1, 1) + swf(40, 5, 1, 1, 1, 1, 1, 1));
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 4u);
  EXPECT_EQ(w->jobs[0].spec.id, JobId(40));
  EXPECT_EQ(w->jobs[1].spec.id, JobId(20));
  EXPECT_EQ(w->jobs[2].spec.id, JobId(30));
  EXPECT_EQ(w->jobs[3].spec.id, JobId(10));
  EXPECT_EQ(w->jobs[1].line, 2);
}

TEST_F(WorkloadTest, SwfHeaderTakesLeadingInteger) {
  const std::string path = write("ctc.swf",
                                 ";\n; MaxNodes: 338 (batch partition; 512 total)\n"
                                 ";   MaxProcs:   338\t\n; MaxRecords: 79302\n" +
                                     swf(1, 0, 1, 1, -1, 1, 1, 1));
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->max_nodes, 338);
  EXPECT_EQ(w->max_procs, 338);
}

TEST_F(WorkloadTest, SwfHeaderUnknownAndMissing) {
  const auto w = read_swf(write("t.swf", "; MaxNodes: -1\n" + swf(1, 0, 1, 1, -1, 1, 1, 1)));
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->max_nodes, 0);
  EXPECT_EQ(w->max_procs, 0);
}

TEST_F(WorkloadTest, SwfAcceptsDecimalsInUnusedFieldsAndOddLayout) {
  // Field 6 (average CPU time) is fractional in several PWA logs; tabs, CRLF, blank lines,
  // indentation and a missing final newline must all be fine.
  const std::string path = write("t.swf",
                                 "; MaxProcs: 8\r\n\r\n   "
                                 "\n\t1\t0\t5\t10\t2\t552.21\t-1\t2\t60\t-1\t1\t3\t1\t-1\t-1\t1\t-1\t-1\r\n"
                                 "  2 1 1.5e2 10 2 .5 7. 2 60 -1 1 3 1 -1 -1 1 -1 -1");
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->max_procs, 8);
  ASSERT_EQ(w->jobs.size(), 2u);
  EXPECT_EQ(w->jobs[0].line, 4);
  EXPECT_EQ(w->jobs[1].line, 5);
  EXPECT_EQ(w->jobs[1].runtime, Duration::seconds(10));
}

struct SwfErrorCase {
  std::string text;
  std::string expect;  // substring of the message
};

class SwfErrorTest : public WorkloadTest, public ::testing::WithParamInterface<SwfErrorCase> {};

TEST_P(SwfErrorTest, NamesFileLineAndField) {
  const std::string path = write("bad.swf", "; MaxProcs: 4\n" + GetParam().text);
  const auto w = read_swf(path);
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(w.error().message.find(path + ":" + GetParam().expect), std::string::npos) << w.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Swf, SwfErrorTest,
    ::testing::Values(
        SwfErrorCase{"1 0 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1\n", "2: expected 18 fields, found 17"},
        SwfErrorCase{"1 0 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1 9\n", "2: expected 18 fields, found 19"},
        SwfErrorCase{"1 0 -1 1.5 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 4 (run time): expected an integer, got '1.5'"},
        SwfErrorCase{"x 0 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 1 (job number): expected an integer, got 'x'"},
        SwfErrorCase{"1 0 -1 10 2 -1 -1 2 1h -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 9 (requested time): expected an integer, got '1h'"},
        SwfErrorCase{"1 0 -1 10 2 -1 -1 2 60 -1 1 u3 1 -1 -1 1 -1 -1\n",
                     "2: field 12 (user id): expected an integer"},
        SwfErrorCase{"1 0 -1 10 2 -1 -1 2 60 -1 1 3 +1 -1 -1 1 -1 -1\n",
                     "2: field 13 (group id): expected an integer"},
        SwfErrorCase{"1 0 -1 10 2 abc -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 6 (average CPU time): not a number: 'abc'"},
        SwfErrorCase{"1 -5 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 2 (submit time): must be >= 0, got -5"},
        SwfErrorCase{"-3 5 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 1 (job number): must be >= 0, got -3"},
        SwfErrorCase{"1 0 -1 10 99999999999 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "2: field 5 (allocated processors): must be <= 2147483647"},
        SwfErrorCase{"1 0 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n\n"
                     "1 9 -1 10 2 -1 -1 2 60 -1 1 3 1 -1 -1 1 -1 -1\n",
                     "4: duplicate job id 1 (first used on line 2)"},
        SwfErrorCase{"; MaxNodes: many\n", "2: MaxNodes: expected a leading integer"}));

TEST_F(WorkloadTest, SwfMissingFileNamesPath) {
  const std::string path = (dir_ / "nope.swf").string();
  const auto w = read_swf(path);
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().code, ErrorCode::kIo);
  EXPECT_NE(w.error().message.find(path), std::string::npos) << w.error().message;
}

TEST_F(WorkloadTest, SwfReadsGzip) {
  std::string text = "; MaxProcs: 240\n";
  for (long i = 1; i <= 5000; ++i) text += swf(i, i * 10, i % 100, 1 + i % 7, -1, 3600, i % 9, 1);
  const auto w = read_swf(write_gz("big.swf.gz", text));
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->max_procs, 240);
  ASSERT_EQ(w->jobs.size(), 5000u);
  EXPECT_EQ(w->jobs[4999].spec.id, JobId(5000));
  EXPECT_EQ(w->jobs[4999].line, 5001);
  EXPECT_EQ(w->jobs[4999].spec.resources.cores, 1 + 5000 % 7);
}

TEST_F(WorkloadTest, SwfTruncatedGzipIsAnError) {
  std::string text;
  for (long i = 1; i <= 20000; ++i) text += swf(i, i, 5, 1, -1, 60, i % 50, i % 3);
  const std::string full = write_gz("full.swf.gz", text);
  std::string bytes(fs::file_size(full) / 2, '\0');
  std::ifstream(full, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const std::string path = write("cut.swf.gz", bytes);
  const auto w = read_swf(path);
  ASSERT_FALSE(w.has_value());
  EXPECT_NE(w.error().message.find(path), std::string::npos) << w.error().message;
}

TEST_F(WorkloadTest, SwfLineLongerThanReadBuffer) {
  const std::string path =
      write("t.swf", "; Note: " + std::string(700000, 'x') + "\n" + swf(1, 0, 1, 1, -1, 1, 1, 1));
  const auto w = read_swf(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 1u);
  EXPECT_EQ(w->jobs[0].line, 2);
}

TEST_F(WorkloadTest, ReadWorkloadDispatches) {
  const std::string path = write("t.swf", swf(1, 0, 1, 1, -1, 1, 1, 1));
  const auto w = read_workload(path, WorkloadFormat::kSwf);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(w->jobs.size(), 1u);
  const auto j = read_workload(path, WorkloadFormat::kJsonl);
  EXPECT_FALSE(j.has_value());  // an SWF line is not JSON
}

}  // namespace
}  // namespace fairway::sim
