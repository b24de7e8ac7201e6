#include "agent/os/job_script.h"

#include <sys/stat.h>

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using Args = std::vector<std::string>;

TEST(JobScriptTest, InterpreterComesFromTheShebangLine) {
  EXPECT_EQ(script_interpreter("#!/bin/bash\necho\n"), (Args{"/bin/bash"}));
  EXPECT_EQ(script_interpreter("#! /usr/bin/env  python3 \nprint()\n"), (Args{"/usr/bin/env", "python3"}));
  EXPECT_EQ(script_interpreter("#!/bin/bash -l -e\r\n"), (Args{"/bin/bash", "-l -e"}));
  EXPECT_EQ(script_interpreter("#!/bin/zsh"), (Args{"/bin/zsh"}));
}

TEST(JobScriptTest, NoShebangMeansBinSh) {
  EXPECT_EQ(script_interpreter("echo hi\n"), (Args{"/bin/sh"}));
  EXPECT_EQ(script_interpreter("#!\necho hi\n"), (Args{"/bin/sh"}));
  EXPECT_EQ(script_interpreter(" #!/bin/bash\n"), (Args{"/bin/sh"}));
}

TEST(JobScriptTest, WritesAPrivateCopyReplacingAStaleOne) {
  testing::TempDir spool;
  const std::string stale = job_script_path(spool.path(), JobId(5));
  EXPECT_EQ(stale, spool / "fairway-job-5.sh");
  testing::write_text(stale, "old");
  auto path = write_job_script(spool.path(), JobId(5), "#!/bin/sh\necho new\n", ::geteuid(), ::getegid());
  ASSERT_TRUE(path) << path.error().message;
  EXPECT_EQ(*path, stale);
  EXPECT_EQ(testing::read_text(*path), "#!/bin/sh\necho new\n");
  struct stat st {};
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  ASSERT_TRUE(remove_job_script(spool.path(), JobId(5)));
  EXPECT_FALSE(std::filesystem::exists(*path));
  EXPECT_TRUE(remove_job_script(spool.path(), JobId(5)));
}

TEST(JobScriptTest, MissingSpoolDirIsNamed) {
  auto path = write_job_script("/nonexistent-fairway-spool", JobId(5), "true\n", ::geteuid(), ::getegid());
  ASSERT_FALSE(path);
  EXPECT_NE(path.error().message.find("/nonexistent-fairway-spool/fairway-job-5.sh"), std::string::npos);
}

}  // namespace
}  // namespace fairway::agent
