// The account a job runs as, looked up once in the parent so that the child, between
// fork and exec, only makes async-signal-safe calls (setgroups/setgid/setuid). Thread-safe.
#pragma once

#include <sys/types.h>
#include <string>
#include <vector>

#include "shared/base/result.h"

namespace fairway::agent {

struct JobUser {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
  std::string home;
  std::string shell;
  std::vector<gid_t> groups;  // supplementary groups, as initgroups() would set them
};

// getpwnam_r + getgrouplist. kNotFound naming the user when there is no such account.
Result<JobUser> look_up_job_user(const std::string& name);

// The account of the agent's effective uid.
Result<JobUser> look_up_current_user();

}  // namespace fairway::agent
