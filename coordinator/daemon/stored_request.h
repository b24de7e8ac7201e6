// The job store's record of a submission (its spec and program): a format the store owns
// and versions apart from the wire protocol, so a wire change cannot strand stored jobs.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// A store record (store_record.h): ["FWJOB", version, {field: value}]. A later version adds
// its reader for the versions before it (decoding migrates); it never reuses a field name
// for a new meaning.
inline constexpr std::string_view kStoredRequestMagic = "FWJOB";
// 2: the GPU request's shape as asked (gpu_per, gpu_asked, cpus_per_gpu, mem_per_gpu_mb).
inline constexpr std::uint32_t kStoredRequestVersion = 2;

// test_only is never stored (such a request queues nothing).
std::string encode_stored_request(const wire::SubmitRequest& request);

// kIo naming the field and value when the record is damaged, kFailedPrecondition naming the
// version when a newer Fairway wrote it. Every field of the version must be present.
Result<wire::SubmitRequest> decode_stored_request(std::string_view record);

// Stores of schema 5 and older kept the request as a wire frame (protocol version 1): the
// same request as a record, for the schema 6 migration. kIo when the frame cannot be read.
Result<std::string> stored_request_from_wire_frame(std::string_view frame);

}  // namespace fairway::daemon
