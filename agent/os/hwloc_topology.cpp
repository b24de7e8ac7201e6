#include "agent/os/hwloc_topology.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace fairway::agent {
namespace {

std::unexpected<Error> load_error(const std::string& source, const std::string& what) {
  return invalid_argument(source + ": " + what);
}

std::string errno_text(int err) {
  return err != 0 ? std::strerror(err) : "unknown error";
}

// hwloc reports a bad XML file only as a failed load; checking the file first lets the
// error say whether it is missing, unreadable or empty rather than just "rejected".
Status check_readable_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return load_error(path, "cannot open topology file: " + errno_text(errno));
  char byte = 0;
  errno = 0;
  const std::size_t n = std::fread(&byte, 1, 1, file);
  const bool failed = std::ferror(file) != 0;
  const int err = errno;
  std::fclose(file);
  // A directory opens fine and fails on the first read (EISDIR).
  if (failed) return load_error(path, "cannot read topology file: " + errno_text(err));
  if (n == 0) return load_error(path, "topology file is empty");
  return ok_status();
}

}  // namespace

Result<HwlocTopology> HwlocTopology::load_host() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return load_error("host", "hwloc_topology_init failed");
  std::unique_ptr<hwloc_topology, Destroyer> topology(raw);
  // GPUs are found through their PCI devices and OS devices, which hwloc drops by default.
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  // Binding is applied for real on the host; the flag tells hwloc the topology is ours.
  hwloc_topology_set_flags(raw, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM);
  if (hwloc_topology_load(raw) != 0) {
    return load_error("host", "hwloc cannot load the host topology: " + errno_text(errno));
  }
  return HwlocTopology(std::move(topology), "host");
}

Result<HwlocTopology> HwlocTopology::load_xml(const std::string& path) {
  if (path.empty()) return invalid_argument("topology file: path is empty");
  if (auto readable = check_readable_file(path); !readable) {
    return std::unexpected(readable.error());
  }
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return load_error(path, "hwloc_topology_init failed");
  std::unique_ptr<hwloc_topology, Destroyer> topology(raw);
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_set_xml(raw, path.c_str()) != 0) {
    return load_error(path, "hwloc cannot use the file as XML input: " + errno_text(errno));
  }
  if (hwloc_topology_load(raw) != 0) {
    return load_error(path, "hwloc rejected the file as topology XML: " + errno_text(errno));
  }
  return HwlocTopology(std::move(topology), path);
}

}  // namespace fairway::agent
