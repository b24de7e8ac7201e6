#include "shared/model/output_name.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

OutputNameFields job42() {
  return OutputNameFields{JobId(42), "alice", "md", "vm1", JobId(), 0};
}

// What the agent opens for the batch step: every letter Slurm's batch step expands.
TEST(OutputName, TheBatchStepExpandsEveryLetter) {
  EXPECT_EQ(expand_output_path("out.%N.%n.%t.%s.%j.%u.%x", job42(), "/w", ""),
            "/w/out.vm1.0.0.batch.42.alice.md");
  EXPECT_EQ(expand_output_path("pct%%.txt", job42(), "/w", ""), "/w/pct%.txt");
  EXPECT_EQ(expand_output_path("%5j-%b", job42(), "/w", ""), "/w/00042-%b");
  EXPECT_EQ(expand_output_path("", job42(), "/w", "/w/default"), "/w/default");
}

// What scontrol shows, as twonode.sh's Slurm did (rows o_N, o_n, o_pct): the job's letters
// expanded, the node's and task's and %% as written.
TEST(OutputName, ScontrolShowsOnlyTheJobsLettersExpanded) {
  constexpr OutputExpansion kShown = OutputExpansion::kJobOnly;
  EXPECT_EQ(expand_output_path("out.%N", job42(), "/w", "", kShown), "/w/out.%N");
  EXPECT_EQ(expand_output_path("out.%n.%t", job42(), "/w", "", kShown), "/w/out.%n.%t");
  EXPECT_EQ(expand_output_path("pct%%.txt", job42(), "/w", "", kShown), "/w/pct%%.txt");
  EXPECT_EQ(expand_output_path("%x-%j.%u.%A_%a", job42(), "/w", "", kShown), "/w/md-42.alice.42_4294967294");
}

}  // namespace
}  // namespace fairway
