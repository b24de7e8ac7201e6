# Tests of the `fairway` CLI: pure parsing and rendering, plus the built binary's usage errors.
# One binary per directory of client/ (api, views/fairway, views/slurm, fairway, slurm).
if(TARGET fairway_client)
  foreach(dir api views/fairway views/slurm fairway slurm)
    string(REPLACE "/" "_" name "client_${dir}_test")
    fairway_test_dir(${name} client/${dir} fairway_client fairway_net nlohmann_json::nlohmann_json)
  endforeach()
  if(TARGET client_fairway_test)
    add_dependencies(client_fairway_test fairway)
    target_compile_definitions(client_fairway_test PRIVATE FAIRWAY_CLI_BINARY="$<TARGET_FILE:fairway>")
  endif()
endif()

# `fairway` must not load libzmq's dependency chain (or any C++ shared library): users run
# it in loops, and loading those was most of its run time (issue 9).
if(TARGET fairway)
  add_test(NAME cli_loads_no_libzmq
    COMMAND sh -c "! ldd \"$1\" | grep -E 'libzmq|libstdc\\+\\+|libtomlplusplus'" sh $<TARGET_FILE:fairway>)
endif()
