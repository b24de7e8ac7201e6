// Payloads of ConfigQuery and its reply (`fairway show config`): an empty map, and the
// settings as key and value strings, every one checked when read.
#include "shared/wire/codec_parts.h"

namespace fairway::wire::detail {
namespace {

ConfigEntry read_entry(MapReader& r) {
  ConfigEntry e;
  e.key = r.str("key", 128);
  e.value = r.str("value");
  if (!r.failed() && e.key.empty()) r.errors().fail(r.path_of("key"), "must not be empty");
  return e;
}

}  // namespace

void encode_payload(Packer& pk, const ConfigQuery&) { pk.pack_map(0); }

void encode_payload(Packer& pk, const ConfigReply& m) {
  pk.pack_map(2);
  put_kv(pk, "now", m.now.seconds());
  put(pk, std::string_view("entries"));
  pk.pack_array(size32(m.entries.size()));
  for (const ConfigEntry& e : m.entries) {
    pk.pack_map(2);
    put_kv(pk, "key", std::string_view(e.key));
    put_kv(pk, "value", std::string_view(e.value));
  }
}

Message read_config_payload(MessageType type, MapReader& r) {
  if (type == MessageType::kConfigQuery) return ConfigQuery{};
  ConfigReply m;
  m.now = Time::from_seconds(r.i64("now"));
  m.entries = read_maps<ConfigEntry>(r, "entries", read_entry);
  return m;
}

}  // namespace fairway::wire::detail
