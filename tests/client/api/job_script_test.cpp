#include "client/api/job_script.h"

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

using Words = std::vector<std::string>;

TEST(JobScript, ReadsBothMarkersUntilTheFirstCommand) {
  const auto d = read_directives(
      "#!/bin/bash\n"
      "#SBATCH -n 4\n"
      "\n"
      "# a plain comment\n"
      "#FAIRWAY --partition=gpu -t 1:00:00\n"
      "   #SBATCH --indented-is-a-comment\n"
      "srun ./a.out\n"
      "#SBATCH --after-the-first-command-is-ignored\n");
  ASSERT_TRUE(d.has_value()) << d.error().message;
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)[0].line, 2);
  EXPECT_EQ((*d)[0].words, (Words{"-n", "4"}));
  EXPECT_EQ((*d)[1].line, 5);
  EXPECT_EQ((*d)[1].words, (Words{"--partition=gpu", "-t", "1:00:00"}));
}

TEST(JobScript, QuotesAndTrailingComments) {
  const auto d = read_directives("#SBATCH -J \"my big job\" --output='out %j.txt' # why\n");
  ASSERT_TRUE(d.has_value()) << d.error().message;
  ASSERT_EQ(d->size(), 1u);
  EXPECT_EQ((*d)[0].words, (Words{"-J", "my big job", "--output=out %j.txt"}));
}

TEST(JobScript, MarkerMustStandAlone) {
  const auto d = read_directives("#SBATCHX -n 4\n#SBATCH\n#FAIRWAY\t-N 2\r\n");
  ASSERT_TRUE(d.has_value()) << d.error().message;
  ASSERT_EQ(d->size(), 1u);
  EXPECT_EQ((*d)[0].line, 3);
  EXPECT_EQ((*d)[0].words, (Words{"-N", "2"}));
  // Slurm 22.05 reads an option right after the marker (tests/conformance row dir_nospace).
  const auto tight = read_directives("#SBATCH-n2 -c2\n");
  ASSERT_TRUE(tight.has_value());
  ASSERT_EQ(tight->size(), 1u);
  EXPECT_EQ((*tight)[0].words, (Words{"-n2", "-c2"}));
}

TEST(JobScript, UnterminatedQuoteNamesTheLine) {
  const auto d = read_directives("#!/bin/sh\n\n#SBATCH -J \"oops\n");
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().message, "line 3: unterminated \" quote");
}

TEST(JobScript, EmptyAndCommandOnlyScripts) {
  EXPECT_TRUE(read_directives("")->empty());
  EXPECT_TRUE(read_directives("echo hi\n#SBATCH -n 2\n")->empty());
  EXPECT_EQ(read_directives("#SBATCH -n 2")->size(), 1u);  // no final newline
}

}  // namespace
}  // namespace fairway::cli
