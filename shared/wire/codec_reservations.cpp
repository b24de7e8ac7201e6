// Payloads of ReservationQuery and its reply (`fairway show reservation`): maps with string
// keys, every field checked when read; times that may be unset are left out.
#include "shared/wire/codec_parts.h"

namespace fairway::wire::detail {
namespace {

ReservationView read_reservation(MapReader& r) {
  ReservationView v;
  v.name = r.str("name");
  v.kind = r.str("kind", 16);
  if (!r.failed() && v.kind != "maintenance" && v.kind != "project") {
    r.errors().fail(r.path_of("kind"), "not maintenance or project: \"" + v.kind + "\"");
  }
  v.state = r.str("state", 16);
  v.start = Time::from_seconds(r.i64("start"));
  v.end = Time::from_seconds(r.i64("end"));
  v.cancelled_at = read_opt_time(r, "cancelled_at");
  v.cancel_reason = r.str("cancel_reason");
  v.nodes = r.str_list("nodes");
  v.account = r.str("account");
  v.users = r.str_list("users");
  v.cores = r.i64("cores", 0);
  v.cores_in_use = r.i64("cores_in_use", 0);
  v.cancel_below_use = r.f64("cancel_below_use");
  v.cancel_after = Duration::seconds(r.i64("cancel_after", 0));
  v.below_since = read_opt_time(r, "below_since");
  v.jobs_pending = r.i32("jobs_pending", 0);
  v.jobs_running = r.i32("jobs_running", 0);
  return v;
}

}  // namespace

void encode_payload(Packer& pk, const ReservationQuery& m) {
  pk.pack_map(1);
  put_kv(pk, "names", m.names);
}

void encode_payload(Packer& pk, const ReservationQueryReply& m) {
  pk.pack_map(2);
  put_kv(pk, "now", m.now.seconds());
  put(pk, std::string_view("reservations"));
  pk.pack_array(size32(m.reservations.size()));
  for (const ReservationView& v : m.reservations) {
    pk.pack_map(15 + (v.cancelled_at ? 1 : 0) + (v.below_since ? 1 : 0));
    put_kv(pk, "name", std::string_view(v.name));
    put_kv(pk, "kind", std::string_view(v.kind));
    put_kv(pk, "state", std::string_view(v.state));
    put_kv(pk, "start", v.start.seconds());
    put_kv(pk, "end", v.end.seconds());
    put_opt_time(pk, "cancelled_at", v.cancelled_at);
    put_kv(pk, "cancel_reason", std::string_view(v.cancel_reason));
    put_kv(pk, "nodes", v.nodes);
    put_kv(pk, "account", std::string_view(v.account));
    put_kv(pk, "users", v.users);
    put_kv(pk, "cores", v.cores);
    put_kv(pk, "cores_in_use", v.cores_in_use);
    put_kv(pk, "cancel_below_use", v.cancel_below_use);
    put_kv(pk, "cancel_after", v.cancel_after.count());
    put_opt_time(pk, "below_since", v.below_since);
    put_kv(pk, "jobs_pending", v.jobs_pending);
    put_kv(pk, "jobs_running", v.jobs_running);
  }
}

Message read_reservation_payload(MessageType type, MapReader& r) {
  if (type == MessageType::kReservationQuery) return ReservationQuery{r.str_list("names", kMaxNamesPerRequest)};
  ReservationQueryReply m;
  m.now = Time::from_seconds(r.i64("now"));
  m.reservations = read_maps<ReservationView>(r, "reservations", read_reservation);
  return m;
}

}  // namespace fairway::wire::detail
