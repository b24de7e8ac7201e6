#include "client/api/coordinator_transport.h"

#include <chrono>
#include <cstdlib>

#include "shared/auth/munge_credential.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::cli {
namespace {

constexpr std::chrono::milliseconds kReplyTimeout{5000};

std::string munge_socket() {
  const char* s = std::getenv("FAIRWAY_MUNGE_SOCKET");
  return s != nullptr ? s : "";
}

}  // namespace

Result<wire::Message> CoordinatorTransport::operator()(const wire::Message& request) {
  if (!client_) {
    FAIRWAY_TRY_ASSIGN(endpoint, resolve_coordinator_endpoint(sources_));
    FAIRWAY_TRY_ASSIGN(client, net::ZmtpRequestClient::connect(endpoint));
    client_.emplace(std::move(client));
    sign_ = !endpoint.starts_with("ipc://");
  }
  if (!sign_) return client_->call(request, kReplyTimeout);
  std::string frame = wire::encode(request);
  auto credential = auth::sign_request(frame, munge_socket());
  if (!credential) {
    return std::unexpected(credential.error().with_context("cannot prove who you are to the coordinator at " +
                                                           client_->endpoint()));
  }
  return client_->call(wire::AuthenticatedRequest{std::move(*credential), std::move(frame)}, kReplyTimeout);
}

}  // namespace fairway::cli
