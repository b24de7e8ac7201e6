# Tests of the `fairway` CLI: pure parsing and rendering, plus the built binary's usage errors.
if(TARGET fairway_cli)
  fairway_test_dir(cli_test coordinator/cli fairway_cli fairway_net nlohmann_json::nlohmann_json)
  if(TARGET cli_test)
    add_dependencies(cli_test fairway)
    target_compile_definitions(cli_test PRIVATE FAIRWAY_CLI_BINARY="$<TARGET_FILE:fairway>")
  endif()
endif()
