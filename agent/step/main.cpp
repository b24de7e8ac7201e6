// fairway-step: started by fairway-agent, as the job's user inside the job's cgroup, to run
// one node's share of a job step (`fairway run`), or with --hold to hold a job's cgroup on
// a node where no batch script runs. Not meant to be run by hand.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "agent/step/step_relay.h"

extern char** environ;

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--hold") == 0) fairway::agent::hold_allocation();
  std::vector<std::string> command;
  int first = 1;
  if (argc > 1 && std::strcmp(argv[1], "--") == 0) first = 2;
  for (int i = first; i < argc; ++i) command.emplace_back(argv[i]);
  std::vector<std::pair<std::string, std::string>> values;
  for (char** e = environ; *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr && std::strncmp(*e, "FAIRWAY_STEP_", 13) == 0) {
      values.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), eq + 1);
    }
  }
  auto plan = fairway::agent::relay_plan_from_values(values, std::move(command));
  // The key proves this relay to the client: no task may read it from its environment.
  for (const auto& [name, value] : values) ::unsetenv(name.c_str());
  if (!plan) {
    std::fprintf(stderr, "fairway-step: %s\n", plan.error().message.c_str());
    return 2;
  }
  return fairway::agent::run_step_relay(*plan);
}
