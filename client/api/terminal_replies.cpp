// escaping_replies: a reply is encoded and decoded once more with escaping on; the cost is
// one more pass over bytes the CLI already holds, small beside the round trip.
#include "client/api/terminal_replies.h"

#include <utility>

#include "shared/wire/codec.h"

namespace fairway::cli {

Transport escaping_replies(Transport inner) {
  return [inner = std::move(inner)](const wire::Message& request) -> Result<wire::Message> {
    auto reply = inner(request);
    if (!reply) return reply;
    return wire::decode_for_terminal(wire::encode(*reply));
  };
}

}  // namespace fairway::cli
