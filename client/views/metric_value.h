// One figure out of the coordinator's metrics reply, as `fairway diag` and sdiag's layout
// read them: a family's plain sample, or a sum over samples picked by suffix and label. Pure.
#pragma once

#include <string_view>

#include "shared/wire/messages.h"

namespace fairway::cli {

// A family's plain sample (no suffix, no labels), or the sum of its samples with `suffix`
// whose labels include `label` = `value` (any when label is empty); 0 when absent.
double metric_value(const wire::MetricsReply& r, std::string_view name, std::string_view suffix = "",
                    std::string_view label = "", std::string_view value = "");

}  // namespace fairway::cli
