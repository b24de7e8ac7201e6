# Tests of the agent: the pure core with fake times, the OS layer with real processes.
fairway_test_dir(agent_core_test agent/core fairway_agent_core)
fairway_test_dir(agent_os_test agent/os fairway_agent_os)
