// Payloads of ReservationQuery and its reply (`fairway show reservation`): maps with string
// keys, every field checked when read; times that may be unset are left out.
#include "shared/wire/codec_parts.h"
#include "shared/wire/field_list.h"

namespace fairway::wire::detail {

template <class V, FieldsOf<ReservationQuery> M>
void fields(V& v, M& m) {
  v.field("names", m.names, {.max_entries = kMaxNamesPerRequest});
}

template <class V, FieldsOf<ReservationView> M>
void fields(V& v, M& m) {
  v.field("name", m.name);
  v.field("kind", m.kind, {.max_bytes = 16});
  v.field("state", m.state, {.max_bytes = 16});
  v.field("start", m.start);
  v.field("end", m.end);
  v.field("cancelled_at", m.cancelled_at);
  v.field("cancel_reason", m.cancel_reason);
  v.field("nodes", m.nodes);
  v.field("account", m.account);
  v.field("users", m.users);
  v.field("cores", m.cores, kCount);
  v.field("cores_in_use", m.cores_in_use, kCount);
  v.field("cancel_below_use", m.cancel_below_use);
  v.field("cancel_after", m.cancel_after, kCount);
  v.field("below_since", m.below_since);
  v.field("jobs_pending", m.jobs_pending, kCount);
  v.field("jobs_running", m.jobs_running, kCount);
}

inline void check_fields(MapReader& r, ReservationView& v) {
  if (v.kind != "maintenance" && v.kind != "project") {
    r.errors().fail(r.path_of("kind"), "not maintenance or project: \"" + v.kind + "\"");
  }
}

template <class V, FieldsOf<ReservationQueryReply> M>
void fields(V& v, M& m) {
  v.field("now", m.now);
  v.field("reservations", m.reservations);
}

void encode_payload(Packer& pk, const ReservationQuery& m) { write_fields(pk, m); }
void encode_payload(Packer& pk, const ReservationQueryReply& m) { write_fields(pk, m); }

Message read_reservation_payload(MessageType type, MapReader& r) {
  if (type == MessageType::kReservationQuery) return read_fields<ReservationQuery>(r);
  return read_fields<ReservationQueryReply>(r);
}

}  // namespace fairway::wire::detail
