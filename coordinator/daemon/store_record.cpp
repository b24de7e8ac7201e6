#include "coordinator/daemon/store_record.h"

namespace fairway::daemon {

std::string seal_record(const RecordKind& kind,
                        const std::function<void(wire::detail::Packer&)>& write_payload) {
  msgpack::sbuffer buf;
  wire::detail::Packer pk(buf);
  pk.pack_array(3);
  wire::detail::put(pk, kind.magic);
  pk.pack_uint32(kind.version);
  write_payload(pk);
  return std::string(buf.data(), buf.size());
}

Status open_record(std::string_view bytes, const RecordKind& kind, std::string_view payload_path,
                   const std::function<void(std::uint32_t, wire::detail::MapReader&)>& read_payload) {
  const std::string name(kind.name);
  auto damaged = [&](std::string what) { return make_error(ErrorCode::kIo, name + ": " + std::move(what)); };
  auto handle = wire::detail::parse_bounded(bytes, name);
  if (!handle) return make_error(ErrorCode::kIo, handle.error().message);
  const msgpack::object& root = handle->get();
  if (root.type != msgpack::type::ARRAY || root.via.array.size != 3) {
    return damaged("not a record (expected an array of 3 elements)");
  }
  const msgpack::object* parts = root.via.array.ptr;
  const auto magic = parts[0].type == msgpack::type::STR
                         ? std::string_view(parts[0].via.str.ptr, parts[0].via.str.size)
                         : std::string_view();
  if (magic != kind.magic) return damaged("not a record (bad magic)");
  if (parts[1].type != msgpack::type::POSITIVE_INTEGER || parts[1].via.u64 == 0) {
    return damaged("not a record version");
  }
  if (parts[1].via.u64 > kind.version) {
    return make_error(ErrorCode::kFailedPrecondition,
                      name + ": record version " + std::to_string(parts[1].via.u64) +
                          " is newer than version " + std::to_string(kind.version) +
                          " that this coordinator reads (written by a newer Fairway)");
  }
  wire::detail::Errors errors;
  wire::detail::MapReader payload(errors, &parts[2], std::string(payload_path));
  read_payload(static_cast<std::uint32_t>(parts[1].via.u64), payload);
  if (errors.failed()) {
    std::string message = errors.take().message;
    if (message.starts_with("wire: ")) message.erase(0, 6);
    return damaged(std::move(message));
  }
  return ok_status();
}

}  // namespace fairway::daemon
