// The field lists of ConfigQuery and its reply (`fairway show config`): an empty map, and
// the settings as key and value strings, every one checked when read.
#pragma once

#include "shared/wire/field_list.h"

namespace fairway::wire::detail {

template <class V, FieldsOf<ConfigQuery> M>
void fields(V&, M&) {}

template <class V, FieldsOf<ConfigEntry> M>
void fields(V& v, M& m) {
  v.field("key", m.key, {.max_bytes = 128});
  v.field("value", m.value);
}

inline void check_fields(MapReader& r, ConfigEntry& e) {
  if (e.key.empty()) r.errors().fail(r.path_of("key"), "must not be empty");
}

template <class V, FieldsOf<ConfigReply> M>
void fields(V& v, M& m) {
  v.field("now", m.now);
  v.field("entries", m.entries);
}

}  // namespace fairway::wire::detail
