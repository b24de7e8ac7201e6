# Lifecycle tests of the whole cluster in one process: the coordinator's and the agents'
# real services, the agents on fake hosts, frames passed by hand (tests/support/cluster_harness.h).
if(TARGET fairway_daemon AND TARGET fairway_agent_daemon)
  fairway_test_dir(cluster_test cluster fairway_daemon fairway_agent_daemon)
endif()
