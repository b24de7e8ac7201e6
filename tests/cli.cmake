# Tests of the `fairway` CLI: pure parsing and rendering, plus the built binary's usage errors.
if(TARGET fairway_cli)
  fairway_test_dir(cli_test coordinator/cli fairway_cli fairway_net nlohmann_json::nlohmann_json)
  if(TARGET cli_test)
    add_dependencies(cli_test fairway)
    target_compile_definitions(cli_test PRIVATE FAIRWAY_CLI_BINARY="$<TARGET_FILE:fairway>")
  endif()
endif()

# `fairway` must not load libzmq's dependency chain (or any C++ shared library): users run
# it in loops, and loading those was most of its run time (issue 9).
if(TARGET fairway)
  add_test(NAME cli_loads_no_libzmq
    COMMAND sh -c "! ldd \"$1\" | grep -E 'libzmq|libstdc\\+\\+|libtomlplusplus'" sh $<TARGET_FILE:fairway>)
endif()
