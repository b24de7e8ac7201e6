// The socket-exclusive GPU rule, written once for the coordinator's placement and the
// agent's ledger: on a fenced node, a job holding a GPU of a socket keeps that socket.
#pragma once

namespace fairway {

// What jobs other than the one asking hold on one socket of a node.
struct SocketOccupancy {
  bool other_holds_gpu = false;    // another job holds a GPU of this socket
  bool other_holds_cores = false;  // another job holds cores of this socket
};

enum class SocketSlot { kCore, kGpu };

// Whether a job may take a core or a GPU of that socket, slots already held aside. On a
// fenced node (`socket_exclusive_gpus` in the partition's placement) a core is closed by
// another job's GPU there, and a GPU by another job's GPU or cores there: a GPU job must be
// able to keep its socket's cores. Unfenced, the socket's other holders do not matter.
constexpr bool socket_fence_allows(bool fenced, SocketSlot slot, SocketOccupancy socket) {
  if (!fenced) return true;
  if (socket.other_holds_gpu) return false;
  return slot == SocketSlot::kCore || !socket.other_holds_cores;
}

}  // namespace fairway
