// Internal to fairway_wire: the payload encoders and readers that codec.cpp (agent and
// submit messages) and codec_client.cpp (client queries and control) and codec_reports.cpp share. Stateless.
#pragma once

#include "shared/wire/messages.h"
#include "shared/wire/msgpack_io.h"
#include "shared/wire/request_limits.h"

namespace fairway::wire::detail {

inline std::uint32_t size32(std::size_t n) { return static_cast<std::uint32_t>(n); }

// "Type.key[i]": where an array element sits, for error messages.
inline std::string item_path(const MapReader& r, std::string_view key, std::size_t i) {
  return r.path_of(key) + "[" + std::to_string(i) + "]";
}

// Reads every element of the array at `key` as a map with `read_one`.
template <typename T, typename ReadOne>
std::vector<T> read_maps(MapReader& r, std::string_view key, ReadOne read_one,
                         std::size_t max_entries = kMaxListEntries) {
  std::vector<T> out;
  const auto items = r.list(key, max_entries);
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size() && !r.failed(); ++i) {
    MapReader item(r.errors(), items[i], item_path(r, key, i));
    out.push_back(read_one(item));
  }
  return out;
}

// codec_client.cpp: one payload map per client message.
void encode_payload(Packer& pk, const JobQuery& m);
void encode_payload(Packer& pk, const JobQueryReply& m);
void encode_payload(Packer& pk, const JobControl& m);
void encode_payload(Packer& pk, const JobControlReply& m);
void encode_payload(Packer& pk, const NodeQuery& m);
void encode_payload(Packer& pk, const NodeQueryReply& m);
void encode_payload(Packer& pk, const SubmitBatch& m);
void encode_payload(Packer& pk, const SubmitBatchReply& m);
void encode_payload(Packer& pk, const NodeControl& m);
void encode_payload(Packer& pk, const NodeControlReply& m);

// Precondition: `type` is one of the client messages above (kJobQuery and later).
Message read_client_payload(MessageType type, MapReader& r);

// codec_reports.cpp: metrics, partitions and shares.
void encode_payload(Packer& pk, const MetricsQuery& m);
void encode_payload(Packer& pk, const MetricsReply& m);
void encode_payload(Packer& pk, const PartitionQuery& m);
void encode_payload(Packer& pk, const PartitionQueryReply& m);
void encode_payload(Packer& pk, const SharesQuery& m);
void encode_payload(Packer& pk, const SharesReply& m);
void encode_payload(Packer& pk, const JobUpdate& m);
void encode_payload(Packer& pk, const SetTimeLimit& m);
void encode_payload(Packer& pk, const SendSignal& m);
// Precondition: `type` is one of the report messages, JobUpdate, SetTimeLimit or SendSignal
// (kMetricsQuery and later).
Message read_report_payload(MessageType type, MapReader& r);

// codec_reservations.cpp
void encode_payload(Packer& pk, const ReservationQuery& m);
void encode_payload(Packer& pk, const ReservationQueryReply& m);
// Precondition: `type` is kReservationQuery or kReservationQueryReply.
Message read_reservation_payload(MessageType type, MapReader& r);

// codec_steps.cpp: a job step's request, launch and stream.
void encode_payload(Packer& pk, const StepRequest& m);
void encode_payload(Packer& pk, const StepReply& m);
void encode_payload(Packer& pk, const LaunchStep& m);
void encode_payload(Packer& pk, const StepIo& m);
void encode_payload(Packer& pk, const StepEnded& m);
// Precondition: `type` is kStepRequest, kStepReply, kLaunchStep, kStepIo or kStepEnded.
Message read_step_payload(MessageType type, MapReader& r);

// codec_config.cpp: the coordinator's settings for clients.
void encode_payload(Packer& pk, const ConfigQuery& m);
void encode_payload(Packer& pk, const ConfigReply& m);
// Precondition: `type` is kConfigQuery or kConfigReply.
Message read_config_payload(MessageType type, MapReader& r);

}  // namespace fairway::wire::detail
