# The chaos test: real coordinator and agents killed (SIGKILL) at random under a submit
# storm; a small count in CI, a larger one by hand (tests/chaos/README.md).
if(TARGET fairway-coordinator AND TARGET fairway-agent)
  add_executable(chaos_test ${CMAKE_CURRENT_SOURCE_DIR}/chaos/chaos_test.cpp)
  target_link_libraries(chaos_test PRIVATE fairway_net fairway_wire fairway_warnings GTest::gtest)
  add_dependencies(chaos_test fairway-coordinator fairway-agent)
  target_compile_definitions(chaos_test PRIVATE
    FAIRWAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    FAIRWAY_COORDINATOR_BINARY="$<TARGET_FILE:fairway-coordinator>"
    FAIRWAY_AGENT_BINARY="$<TARGET_FILE:fairway-agent>")
  add_test(NAME chaos COMMAND chaos_test)
  # It found two defects, both fixed by the job's keeper (agent/os/job_keeper.h): a job that
  # ended while its agent was dead lost its exit status, and an agent killed with -9 left
  # its jobs unfenced. About 30 s here.
  set_tests_properties(chaos PROPERTIES TIMEOUT 240
    ENVIRONMENT "CHAOS_ROUNDS=8;CHAOS_JOBS=150;CHAOS_CLIENTS=3")
endif()
