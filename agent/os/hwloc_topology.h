// An owned, loaded hwloc topology (RAII): from the running host or from an hwloc XML export.
// Not thread-safe to load; a loaded topology may be read from several threads.
#pragma once

#include <hwloc.h>

#include <memory>
#include <string>
#include <utility>

#include "shared/base/result.h"

namespace fairway::agent {

class HwlocTopology {
 public:
  // The host as hwloc sees it, with I/O devices (PCI, GPUs) kept.
  static Result<HwlocTopology> load_host();
  // The machine described by an hwloc XML file. Errors name `path`.
  static Result<HwlocTopology> load_xml(const std::string& path);

  hwloc_topology_t get() const { return topology_.get(); }
  // Where the topology came from ("host" or the XML path), for error messages.
  const std::string& source() const { return source_; }

 private:
  struct Destroyer {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
  };
  HwlocTopology(std::unique_ptr<hwloc_topology, Destroyer> topology, std::string source)
      : topology_(std::move(topology)), source_(std::move(source)) {}

  std::unique_ptr<hwloc_topology, Destroyer> topology_;
  std::string source_;
};

}  // namespace fairway::agent
