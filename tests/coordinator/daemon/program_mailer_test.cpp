// ProgramMailer with a real program: a shell script in a temporary directory standing in
// for sendmail gets the message on its stdin and `-t -oi`; a missing program is an error
// naming it; an empty one sends nothing; every sender is reaped.
#include "coordinator/daemon/program_mailer.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

class ProgramMailerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-mailer-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A sendmail that writes its arguments and its stdin into the directory, then exits `rc`.
  std::string script(int rc) {
    const std::string path = (dir_ / "sendmail").string();
    std::ofstream(path) << "#!/bin/sh\necho \"$@\" > '" << (dir_ / "args").string() << "'\ncat > '"
                        << (dir_ / "message.part").string() << "'\nmv '" << (dir_ / "message.part").string()
                        << "' '" << (dir_ / "message").string() << "'\nexit " << rc << "\n";
    ::chmod(path.c_str(), 0700);
    return path;
  }
  // Reaps until no sender is left; false if one is still there after a generous while
  // (a correctness bound, not a speed target).
  static bool reap_all(ProgramMailer& m) {
    for (int i = 0; i < 1000 && m.in_flight() > 0; ++i) {
      m.reap();
      if (m.in_flight() > 0) ::usleep(10'000);
    }
    return m.in_flight() == 0;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  fs::path dir_;
};

TEST_F(ProgramMailerTest, TheProgramGetsTheMessageOnItsStdinWithDashTAndDashOi) {
  ProgramMailer mailer(script(0));
  const std::string message = "To: alice\nSubject: Fairway Job_id=5 Name=md Ended\n\nbody\n";
  ASSERT_TRUE(mailer.send(message));
  EXPECT_EQ(mailer.in_flight(), 1u);
  ASSERT_TRUE(reap_all(mailer)) << "the sender was never reaped";
  EXPECT_EQ(read("message"), message);
  EXPECT_EQ(read("args"), "-t -oi\n");
}

TEST_F(ProgramMailerTest, ASenderThatFailsIsReapedToo) {
  ProgramMailer mailer(script(75));
  ASSERT_TRUE(mailer.send("To: alice\n\n"));
  EXPECT_TRUE(reap_all(mailer)) << "a sender that exited 75 was never reaped";
}

TEST_F(ProgramMailerTest, AMissingProgramIsAnErrorNamingIt) {
  const std::string missing = (dir_ / "no-sendmail").string();
  ProgramMailer mailer(missing);
  const Status st = mailer.send("To: alice\n\n");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kNotFound);
  EXPECT_NE(st.error().message.find(missing), std::string::npos) << st.error().message;
  EXPECT_EQ(mailer.in_flight(), 0u);
}

TEST_F(ProgramMailerTest, NoProgramSendsNothing) {
  ProgramMailer mailer("");
  EXPECT_TRUE(mailer.send("To: alice\n\n"));
  EXPECT_EQ(mailer.in_flight(), 0u);
}

}  // namespace
}  // namespace fairway::daemon
