# Integration tests: real fairway-coordinator and fairway-agent processes on ipc:// sockets
# in a temporary directory.
if(TARGET fairway-coordinator AND TARGET fairway-agent AND TARGET fairway)
  fairway_test_dir(integration_test integration fairway_net fairway_wire fairway_auth nlohmann_json::nlohmann_json)
  # The forged-identity attack: a library that makes the CLI believe it runs as root.
  add_library(fake_root_uid SHARED ${CMAKE_CURRENT_SOURCE_DIR}/support/fake_root_uid.cpp)
  add_dependencies(integration_test fairway-coordinator fairway-agent fairway-step fairway fairway-slurm fake_root_uid)
  target_compile_definitions(integration_test PRIVATE
    FAIRWAY_FAKE_ROOT_SHIM="$<TARGET_FILE:fake_root_uid>"
    FAIRWAY_COORDINATOR_BINARY="$<TARGET_FILE:fairway-coordinator>"
    FAIRWAY_AGENT_BINARY="$<TARGET_FILE:fairway-agent>"
    FAIRWAY_CLI_BINARY="$<TARGET_FILE:fairway>"
    FAIRWAY_SLURM_BIN_DIR="${CMAKE_BINARY_DIR}/slurm/bin")
  # Whether fairway-step serves srun --mpi=pmix (cmake/agent.cmake found OpenPMIx).
  if(PMIX_FOUND)
    target_compile_definitions(integration_test PRIVATE FAIRWAY_HAVE_PMIX=1)
  endif()
endif()
