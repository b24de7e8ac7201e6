// The hardware of one compute node as the scheduler sees it: sockets holding cores
// (each with SMT PUs) and GPUs attached to a socket. Plain data; built by config or hwloc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fairway {

struct GpuDevice {
  std::string type;     // lower-case model tag used in requests: "v100", "a100"; may be empty
  std::int32_t socket;  // index into NodeTopology::sockets whose cores are local to it
};

struct SocketTopology {
  std::int32_t cores = 0;             // physical cores on this socket
  std::int32_t threads_per_core = 1;  // SMT PUs per core
};

struct NodeTopology {
  std::string name;
  std::vector<SocketTopology> sockets;
  std::vector<GpuDevice> gpus;
  std::int64_t memory_mb = 0;
  std::vector<std::string> features;
  // The node group with a faster network between its members (Fram's islands); empty:
  // none. A site label from the config, not hardware hwloc can see.
  std::string island;

  // Cores are numbered node-wide, socket by socket: socket 0 owns [0, sockets[0].cores).
  std::int32_t total_cores() const {
    std::int32_t n = 0;
    for (const auto& s : sockets) n += s.cores;
    return n;
  }
  std::int32_t total_gpus() const { return static_cast<std::int32_t>(gpus.size()); }
  std::int32_t first_core_of_socket(std::int32_t socket) const {
    std::int32_t n = 0;
    for (std::int32_t i = 0; i < socket; ++i) n += sockets[static_cast<std::size_t>(i)].cores;
    return n;
  }
  std::int32_t socket_of_core(std::int32_t core) const {
    for (std::size_t i = 0; i < sockets.size(); ++i) {
      if (core < sockets[i].cores) return static_cast<std::int32_t>(i);
      core -= sockets[i].cores;
    }
    return -1;
  }

  // A uniform node: `sockets` sockets of `cores_per_socket` cores, `gpus_per_socket` each.
  static NodeTopology uniform(std::string name, std::int32_t sockets, std::int32_t cores_per_socket,
                              std::int32_t gpus_per_socket = 0, std::string gpu_type = {},
                              std::int32_t threads_per_core = 1) {
    NodeTopology t;
    t.name = std::move(name);
    for (std::int32_t s = 0; s < sockets; ++s) {
      t.sockets.push_back({cores_per_socket, threads_per_core});
      for (std::int32_t g = 0; g < gpus_per_socket; ++g) t.gpus.push_back({gpu_type, s});
    }
    return t;
  }
};

}  // namespace fairway
