// What every submission passes before the core sees it, and the spec it goes in with: the
// caller's identity, its default account and name. Free functions over the client API's context.
#pragma once

#include <string>

#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// The refusal of a user over the rate limit ("request" or "submission").
Error rate_limited(const ServiceContext& ctx, const std::string& user, const char* what, Time now);
// A client may name its user (the CLI does); naming anyone else is refused, not obeyed.
Status check_named_user(const wire::SubmitRequest& m, const Caller& caller);
// The program, a negative nice (admins only), the dependencies' visibility and the
// submission rate limit (which it takes a token from).
Status check_submission(ServiceContext& ctx, const wire::SubmitRequest& m, const Caller& caller, Time now);
// With security.private_data, a dependency may name only the caller's own jobs.
Status check_dependencies_visible(const ServiceContext& ctx, const JobSpec& spec, const Caller& caller);
JobSpec submission_spec(const Config& config, const wire::SubmitRequest& m, const Caller& caller, Time now);
// The first declared account listing the user, else "default".
std::string default_account(const Config& config, const std::string& user);

}  // namespace fairway::daemon
