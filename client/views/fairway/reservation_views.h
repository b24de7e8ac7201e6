// `fairway show reservation [NAME...]` (scontrol show reservation): each reservation's
// window, nodes, state and, for a project's, who may use it, its use and its patience.
#pragma once

#include <string>
#include <vector>

#include "client/api/transport.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

int run_show_reservation(const std::vector<std::string>& names, bool json, const Transport& transport,
                         const Output& io);
std::string render_reservation_detail(const wire::ReservationView& r, Time now);
std::string reservations_json(const wire::ReservationQueryReply& reply);

}  // namespace fairway::cli
