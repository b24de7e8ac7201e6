#include "client/api/transport.h"

namespace fairway::cli {

int report_error(const Output& io, const std::string& message, int code) {
  io.err << "fairway: error: " << message << "\n";
  return code;
}

}  // namespace fairway::cli
