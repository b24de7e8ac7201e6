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
  # DISABLED until two known defects are fixed (tests/chaos/README.md, issue 9): a job that
  # ends while its agent is dead ends FAILED and may run again (its exit record dies with
  # the agent), and an agent killed with -9 leaves its jobs unfenced, so they can overlap
  # their requeued copy. ctest lists it as "Not Run (Disabled)"; build/tests/chaos_test runs it.
  set_tests_properties(chaos PROPERTIES TIMEOUT 240 DISABLED TRUE
    ENVIRONMENT "CHAOS_ROUNDS=8;CHAOS_JOBS=150;CHAOS_CLIENTS=3")
endif()
