// Prometheus' text exposition format (version 0.0.4) of a metrics snapshot: HELP and TYPE
// lines, then one line per sample with escaped label values. Pure; thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::daemon {

std::string prometheus_text(const wire::MetricsReply& metrics);

}  // namespace fairway::daemon
