#include "shared/auth/munge_credential.h"
#include "shared/base/try.h"

#include <munge.h>
#include <sodium.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace fairway::auth {
namespace {

using Digest = std::array<unsigned char, crypto_hash_sha256_BYTES>;

Digest digest_of(std::string_view request) {
  Digest d{};
  crypto_hash_sha256(d.data(), reinterpret_cast<const unsigned char*>(request.data()), request.size());
  return d;
}

struct ContextDeleter {
  void operator()(munge_ctx* c) const { munge_ctx_destroy(c); }
};
using Context = std::unique_ptr<munge_ctx, ContextDeleter>;

Result<Context> context_for(const std::string& socket) {
  Context ctx(munge_ctx_create());
  if (!ctx) return make_error(ErrorCode::kResourceExhausted, "munge: cannot create a context");
  if (!socket.empty() && munge_ctx_set(ctx.get(), MUNGE_OPT_SOCKET, socket.c_str()) != EMUNGE_SUCCESS) {
    return make_error(ErrorCode::kInvalidArgument, "munge: bad socket path '" + socket + "'");
  }
  return ctx;
}

std::string where(const std::string& socket) {
  return socket.empty() ? std::string("munged") : "munged at " + socket;
}

}  // namespace

Result<std::string> sign_request(std::string_view request, const std::string& socket) {
  FAIRWAY_TRY_ASSIGN(ctx, context_for(socket));
  const Digest d = digest_of(request);
  char* cred = nullptr;
  const munge_err_t e = munge_encode(&cred, ctx.get(), d.data(), static_cast<int>(d.size()));
  if (e != EMUNGE_SUCCESS) {
    std::free(cred);
    return make_error(
        e == EMUNGE_SOCKET ? ErrorCode::kUnavailable : ErrorCode::kInternal,
        "cannot get a MUNGE credential from " + where(socket) + ": " + munge_ctx_strerror(ctx.get()));
  }
  std::string out(cred);
  std::free(cred);
  return out;
}

Result<VerifiedCaller> verify_request(std::string_view credential, std::string_view request,
                                      const std::string& socket) {
  FAIRWAY_TRY_ASSIGN(ctx, context_for(socket));
  const std::string cred(credential);
  void* payload = nullptr;
  int len = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  const munge_err_t e = munge_decode(cred.c_str(), ctx.get(), &payload, &len, &uid, &gid);
  std::unique_ptr<void, decltype(&std::free)> owned(payload, &std::free);
  switch (e) {
    case EMUNGE_SUCCESS:
      break;
    case EMUNGE_CRED_EXPIRED:
      return make_error(ErrorCode::kPermissionDenied, "MUNGE credential expired (check the clocks)");
    case EMUNGE_CRED_REWOUND:
      return make_error(ErrorCode::kPermissionDenied, "MUNGE credential from the future (check the clocks)");
    case EMUNGE_CRED_REPLAYED:
      return make_error(ErrorCode::kPermissionDenied, "MUNGE credential replayed");
    case EMUNGE_SOCKET:
      return make_error(
          ErrorCode::kUnavailable,
          "cannot reach " + where(socket) + " to check a credential: " + munge_ctx_strerror(ctx.get()));
    default:
      return make_error(ErrorCode::kPermissionDenied,
                        std::string("invalid MUNGE credential: ") + munge_strerror(e));
  }
  const Digest d = digest_of(request);
  if (len != static_cast<int>(d.size()) || std::memcmp(payload, d.data(), d.size()) != 0) {
    return make_error(ErrorCode::kPermissionDenied, "MUNGE credential was made for another request");
  }
  return VerifiedCaller{static_cast<std::uint32_t>(uid), static_cast<std::uint32_t>(gid)};
}

}  // namespace fairway::auth
