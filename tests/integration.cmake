# Integration tests: real fairway-coordinator and fairway-agent processes on ipc:// sockets
# in a temporary directory.
if(TARGET fairway-coordinator AND TARGET fairway-agent AND TARGET fairway)
  fairway_test_dir(integration_test integration fairway_net fairway_wire)
  add_dependencies(integration_test fairway-coordinator fairway-agent fairway)
  target_compile_definitions(integration_test PRIVATE
    FAIRWAY_COORDINATOR_BINARY="$<TARGET_FILE:fairway-coordinator>"
    FAIRWAY_AGENT_BINARY="$<TARGET_FILE:fairway-agent>"
    FAIRWAY_CLI_BINARY="$<TARGET_FILE:fairway>")
endif()
