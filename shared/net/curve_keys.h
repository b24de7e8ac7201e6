// CURVE keys for the agent channel: Z85 text files, a node's secret key readable by root
// only, public keys shareable. Generation and strict parsing; functions are thread-safe.
#pragma once

#include <string>

#include "shared/base/result.h"

namespace fairway::net {

struct CurveKeyPair {
  std::string public_z85;  // 40 characters
  std::string secret_z85;
};

Result<CurveKeyPair> generate_curve_keypair();

// Writes DIR/NAME.key (the secret, mode 0600) and DIR/NAME.pub; refuses to overwrite.
Status write_curve_keypair(const std::string& dir, const std::string& name, const CurveKeyPair& keys);

// A secret key file: one Z85 key of 40 characters (a trailing newline allowed), not
// readable by group or others. The pair's public half is derived from it.
Result<CurveKeyPair> read_curve_secret_key(const std::string& path);
// A public key file of the same form.
Result<std::string> read_curve_public_key(const std::string& path);

}  // namespace fairway::net
