#include "agent/os/gpu_discovery.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

namespace fairway::agent {
namespace {

// How a GPU OS device reaches software. Lower ranks give better vendor/model strings and
// the index the runtimes' *_VISIBLE_DEVICES understand.
enum class Backend { kCuda, kNvml, kRsmi, kLevelZero, kOpenCl, kDrm, kOther };

struct BackendName {
  std::string_view info;    // hwloc "Backend" info value
  std::string_view prefix;  // OS device name prefix, for devices without that info
  Backend backend;
};
constexpr std::array<BackendName, 7> kBackends{{
    {"CUDA", "cuda", Backend::kCuda},
    {"NVML", "nvml", Backend::kNvml},
    {"RSMI", "rsmi", Backend::kRsmi},
    {"LevelZero", "ze", Backend::kLevelZero},
    {"OpenCL", "opencl", Backend::kOpenCl},
    {"", "card", Backend::kDrm},
    {"", "renderD", Backend::kDrm},
}};

std::string_view info(hwloc_obj_t obj, const char* name) {
  const char* value = hwloc_obj_get_info_by_name(obj, name);
  return value != nullptr ? std::string_view(value) : std::string_view();
}

std::string_view os_name(hwloc_obj_t osdev) {
  return osdev->name != nullptr ? std::string_view(osdev->name) : std::string_view();
}

Backend backend_of(hwloc_obj_t osdev) {
  const std::string_view reported = info(osdev, "Backend");
  const std::string_view name = os_name(osdev);
  for (const auto& b : kBackends) {
    if (!b.info.empty() && reported == b.info) return b.backend;
  }
  for (const auto& b : kBackends) {
    if (name.starts_with(b.prefix)) return b.backend;
  }
  return Backend::kOther;
}

// "cuda3" -> "3" when the name is exactly prefix + digits.
std::string backend_index(hwloc_obj_t osdev, std::string_view prefix) {
  std::string_view name = os_name(osdev);
  if (!name.starts_with(prefix)) return {};
  name.remove_prefix(prefix.size());
  unsigned index = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (ec != std::errc() || end != name.data() + name.size()) return {};
  return std::to_string(index);
}

bool is_gpu_osdev(hwloc_obj_t osdev) {
  return osdev->attr->osdev.type == HWLOC_OBJ_OSDEV_GPU || osdev->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC;
}

hwloc_obj_t pci_ancestor(hwloc_obj_t obj) {
  for (hwloc_obj_t p = obj->parent; p != nullptr && hwloc_obj_type_is_io(p->type); p = p->parent) {
    if (p->type == HWLOC_OBJ_PCI_DEVICE) return p;
  }
  return nullptr;
}

std::string_view vendor_of_pci_id(unsigned short vendor_id) {
  switch (vendor_id) {
    case 0x10de:
      return "NVIDIA";
    case 0x1002:
      return "AMD";
    case 0x8086:
      return "Intel";
    default:
      return {};
  }
}

// hwloc backends spell vendors in full ("NVIDIA Corporation", "Advanced Micro Devices,
// Inc."); the launcher picks CUDA_ or ROCR_VISIBLE_DEVICES from the short name.
std::string normalize_vendor(std::string_view raw) {
  std::string lower(raw);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.find("nvidia") != std::string::npos) return "NVIDIA";
  if (lower.find("advanced micro devices") != std::string::npos || lower.starts_with("amd") ||
      lower.starts_with("ati ")) {
    return "AMD";
  }
  if (lower.starts_with("intel")) return "Intel";
  return std::string(raw);
}

std::string format_bus_id(const hwloc_obj_attr_u::hwloc_pcidev_attr_s& pci) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%01x", static_cast<unsigned>(pci.domain),
                static_cast<unsigned>(pci.bus), static_cast<unsigned>(pci.dev),
                static_cast<unsigned>(pci.func));
  return buf;
}

// The package whose cpuset covers the GPU's locality. A GPU attached above the packages
// (root complex on the machine, or a node without packages) has no single local socket;
// socket 0 is as good as any and keeps the GPU schedulable.
std::int32_t socket_of(hwloc_topology_t topology, hwloc_obj_t io_obj) {
  hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topology, io_obj);
  if (local == nullptr || local->cpuset == nullptr || hwloc_bitmap_iszero(local->cpuset)) {
    return 0;
  }
  const int packages = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE);
  for (int p = 0; p < packages; ++p) {
    hwloc_obj_t package = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PACKAGE, static_cast<unsigned>(p));
    if (hwloc_bitmap_isincluded(local->cpuset, package->cpuset)) return p;
  }
  return 0;
}

struct GpuGroup {
  hwloc_obj_t pci = nullptr;  // the PCI device all these OS devices sit on
  std::vector<hwloc_obj_t> osdevs;
};

struct SortKey {
  bool outside_pci;
  std::tuple<unsigned, unsigned, unsigned, unsigned> bus;
  std::string name;
  auto operator<=>(const SortKey&) const = default;
};

SortKey sort_key(const GpuGroup& g) {
  if (g.pci == nullptr) return {true, {}, std::string(os_name(g.osdevs.front()))};
  const auto& a = g.pci->attr->pcidev;
  return {false, {a.domain, a.bus, a.dev, a.func}, {}};
}

// A PCI device showing only DRM nodes (card0, renderD128) may be a BMC's display adapter
// (ASPEED, Matrox), not a compute GPU; such a device counts only from a GPU vendor.
bool is_compute_gpu(const GpuGroup& g) {
  const bool drm_only = std::all_of(g.osdevs.begin(), g.osdevs.end(),
                                    [](hwloc_obj_t o) { return backend_of(o) == Backend::kDrm; });
  if (!drm_only) return true;
  return g.pci != nullptr && !vendor_of_pci_id(g.pci->attr->pcidev.vendor_id).empty();
}

// First non-empty info value, trying OS devices from the best backend down.
std::string_view best_info(const std::vector<hwloc_obj_t>& ranked, const char* name) {
  for (hwloc_obj_t o : ranked) {
    if (auto v = info(o, name); !v.empty()) return v;
  }
  return {};
}

GpuIdentity identify(const GpuGroup& g) {
  std::vector<hwloc_obj_t> ranked = g.osdevs;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](hwloc_obj_t a, hwloc_obj_t b) { return backend_of(a) < backend_of(b); });
  GpuIdentity id;
  if (auto v = best_info(ranked, "GPUVendor"); !v.empty()) {
    id.vendor = normalize_vendor(v);
  } else if (g.pci != nullptr) {
    const auto known = vendor_of_pci_id(g.pci->attr->pcidev.vendor_id);
    id.vendor = !known.empty() ? std::string(known) : std::string(info(g.pci, "PCIVendor"));
  }
  id.model = std::string(best_info(ranked, "GPUModel"));
  if (id.model.empty() && g.pci != nullptr) id.model = std::string(info(g.pci, "PCIDevice"));
  if (g.pci != nullptr) id.pci_bus_id = format_bus_id(g.pci->attr->pcidev);
  // CUDA's own numbering first: it is what CUDA_VISIBLE_DEVICES means by default.
  for (std::string_view prefix : {"cuda", "nvml", "rsmi"}) {
    for (hwloc_obj_t o : ranked) {
      if (id.visible_id.empty()) id.visible_id = backend_index(o, prefix);
    }
  }
  return id;
}

}  // namespace

std::vector<LocatedGpu> read_gpus(hwloc_topology_t topology) {
  std::vector<GpuGroup> groups;
  std::map<hwloc_obj_t, std::size_t> group_of_pci;
  hwloc_obj_t osdev = nullptr;
  while ((osdev = hwloc_get_next_osdev(topology, osdev)) != nullptr) {
    if (!is_gpu_osdev(osdev)) continue;
    hwloc_obj_t pci = pci_ancestor(osdev);
    if (pci == nullptr) {
      // Without a PCI device there is nothing to tell two backends' views apart by; hwloc
      // attaches every backend it can to PCI, so this is a lone device.
      groups.push_back({nullptr, {osdev}});
      continue;
    }
    auto [it, inserted] = group_of_pci.try_emplace(pci, groups.size());
    if (inserted) groups.push_back({pci, {}});
    groups[it->second].osdevs.push_back(osdev);
  }
  std::erase_if(groups, [](const GpuGroup& g) { return !is_compute_gpu(g); });
  std::sort(groups.begin(), groups.end(),
            [](const GpuGroup& a, const GpuGroup& b) { return sort_key(a) < sort_key(b); });

  std::vector<LocatedGpu> gpus;
  std::map<std::string, int> ordinal_of_vendor;
  for (const GpuGroup& g : groups) {
    LocatedGpu gpu{identify(g), socket_of(topology, g.pci != nullptr ? g.pci : g.osdevs.front())};
    const int ordinal = ordinal_of_vendor[gpu.identity.vendor]++;
    if (gpu.identity.visible_id.empty()) gpu.identity.visible_id = std::to_string(ordinal);
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

namespace {

std::string lower_text(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::optional<DeviceNumber> parse_major_minor(const std::string& text) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(text.c_str(), "%u:%u", &major, &minor) != 2) return std::nullopt;
  return DeviceNumber{major, minor};
}

}  // namespace

std::vector<DeviceNumber> gpu_device_numbers(const GpuIdentity& gpu, const std::string& sysfs,
                                             const std::string& procfs) {
  std::vector<DeviceNumber> out;
  if (gpu.pci_bus_id.empty()) return out;
  const std::string bus = lower_text(gpu.pci_bus_id);
  if (lower_text(gpu.vendor) == "nvidia") {
    constexpr unsigned kNvidiaMajor = 195;
    const std::string info = file_text(procfs + "/driver/nvidia/gpus/" + bus + "/information");
    const auto at = info.find("Device Minor:");
    if (at != std::string::npos) {
      unsigned minor = 0;
      if (std::sscanf(info.c_str() + at, "Device Minor: %u", &minor) == 1)
        out.push_back({kNvidiaMajor, minor});
    }
  }
  std::error_code ec;
  const std::filesystem::path drm = std::filesystem::path(sysfs) / "bus/pci/devices" / bus / "drm";
  for (const auto& entry : std::filesystem::directory_iterator(drm, ec)) {
    if (auto d = parse_major_minor(file_text((entry.path() / "dev").string()))) out.push_back(*d);
  }
  std::sort(out.begin(), out.end(), [](const DeviceNumber& a, const DeviceNumber& b) {
    return std::pair(a.major, a.minor) < std::pair(b.major, b.minor);
  });
  return out;
}

}  // namespace fairway::agent
