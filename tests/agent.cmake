# Tests of the agent: the pure core with fake times; the OS layer with real processes,
# hwloc discovery against the shared real topologies, fixtures and the host itself.
fairway_test_dir(agent_core_test agent/core fairway_agent_core)
fairway_test_dir(agent_os_test agent/os fairway_agent_os)
fairway_test_dir(agent_step_test agent/step fairway_step_relay)
if(TARGET fairway_agent_daemon)
  fairway_test_dir(agent_daemon_test agent/daemon fairway_agent_daemon)
endif()
