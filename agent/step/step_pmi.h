// What a step relay asks of the PMI it serves its tasks (PMI-1/PMI-2 or PMIx): the sockets
// to watch, each task's variables, and the node's part of each fence, exchanged through srun.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fairway::agent {

class StepPmi {
 public:
  virtual ~StepPmi() = default;
  // In the forked task, before exec: what it must inherit, and the variables that say so.
  virtual std::vector<std::pair<std::string, std::string>> task_environment(std::int32_t local) = 0;
  // In the relay once every task is forked.
  virtual void close_task_ends() = 0;
  // Descriptors the relay polls for reading (-1: none in that place); on_readable(i) when
  // the i-th is readable.
  virtual std::vector<int> fds() const = 0;
  virtual void on_readable(std::int32_t index) = 0;
  // Once this node has entered the step's next fence: its number and the node's blob, to
  // send to srun (once).
  virtual std::optional<std::pair<std::int64_t, std::string>> take_fence() = 0;
  // srun's answer for fence `number`: every node's blob joined, or (number -1) why it failed.
  virtual void fence_done(std::int64_t number, const std::string& data) = 0;
  // A task's abort, or what went wrong serving PMI: the step ends. The message, once.
  virtual std::optional<std::string> take_abort() = 0;
};

}  // namespace fairway::agent
