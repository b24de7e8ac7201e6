# Tests of the agent's OS layer: hwloc discovery against the shared real topologies,
# hand-written fixtures in tests/fixtures/topologies/ and the host itself.
if(TARGET fairway_agent_os)
  fairway_test_dir(agent_os_test agent/os fairway_agent_os)
endif()
