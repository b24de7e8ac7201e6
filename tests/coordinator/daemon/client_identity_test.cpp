// The system authenticator (NSS): a caller's gid must be one of its user's groups, since a
// job runs with it (issue 33 item 9).
#include "coordinator/daemon/client_identity.h"

#include <gtest/gtest.h>

#include <pwd.h>
#include <unistd.h>

namespace fairway::daemon {
namespace {

TEST(SystemAuthenticator, AGidThatIsNotOneOfTheUsersGroupsIsRefused) {
  const passwd* pw = ::getpwnam("nobody");
  if (pw == nullptr) GTEST_SKIP() << "no user nobody here";
  const std::uint32_t uid = pw->pw_uid, gid = pw->pw_gid;
  auto auth = make_system_authenticator(SecurityConfig{});
  auto own = auth->from_kernel({uid, gid, ::getpid()});
  ASSERT_TRUE(own) << own.error().message;
  EXPECT_EQ(own->gid, gid);
  auto foreign = auth->from_kernel({uid, 0, ::getpid()});  // root's group as its egid
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(foreign.error().message.find("gid 0 is not a group of user 'nobody' (its groups: " +
                                         std::to_string(gid)),
            std::string::npos)
      << foreign.error().message;
}

TEST(SystemAuthenticator, RootMayUseAnyGid) {
  auto auth = make_system_authenticator(SecurityConfig{});
  auto root = auth->from_kernel({0, 12345, ::getpid()});
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(root->gid, 12345U);
}

}  // namespace
}  // namespace fairway::daemon
