// The transport of the CLI's text views: every string of a reply has its control
// characters escaped before any view formats it, so all of them (fairway's, squeue's,
// sacct's, scontrol's, sinfo's...) are safe at once. JSON views use the exact reply.
#pragma once

#include "client/api/transport.h"

namespace fairway::cli {

// `inner`'s replies, decoded again with wire::decode_for_terminal.
Transport escaping_replies(Transport inner);

}  // namespace fairway::cli
