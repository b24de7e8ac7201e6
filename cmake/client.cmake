# client/: the `fairway` command and Slurm's command names. Parsing and rendering (api/,
# views/, fairway/, slurm/) live in fairway_client so that tests can drive them without a
# coordinator; the main.cpp files wire them to the coordinator through the ZMTP client (no
# libzmq: a short command's start-up is most of its cost). It links no coordinator code.
file(GLOB_RECURSE fairway_client_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/client/*.cpp)
list(FILTER fairway_client_srcs EXCLUDE REGEX ".*/(main|fairway_command)\\.cpp$")
add_library(fairway_client STATIC ${fairway_client_srcs})
target_include_directories(fairway_client PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_client PUBLIC fairway_wire fairway_config_io fairway_zmtp_client
  PRIVATE fairway_warnings nlohmann_json::nlohmann_json)

# The command tree both front-ends parse with, compiled once for the two of them.
add_library(fairway_command OBJECT client/fairway/fairway_command.cpp)
target_link_libraries(fairway_command PRIVATE fairway_client fairway_warnings CLI11::CLI11)
target_compile_definitions(fairway_command PRIVATE FAIRWAY_VERSION="${PROJECT_VERSION}")

add_executable(fairway client/fairway/main.cpp $<TARGET_OBJECTS:fairway_command>)
# Users run this in loops: its start-up is most of its cost. A static libstdc++ saves the
# dynamic loader ~0.4 ms a run (measured: C++ hello 1.76 ms, with -static-libstdc++ 1.37 ms,
# /bin/true 1.25 ms). Safe: nothing it loads is C++ (libmunge and libsodium are C).
# Fully static (glibc too) saves the loader's mapping and relocating of libc and libm:
# measured 1.80 -> ~1.55 ms per `fairway submit` here. It makes no NSS call (a static
# program must not load NSS modules): requests name no user, and host names resolve
# through shared/net/host_resolver (hosts file, then DNS).
target_link_options(fairway PRIVATE -static -static-libstdc++ -static-libgcc -Wl,--as-needed)
# Likewise libmunge and libsodium, linked from their static archives (cmake/auth.cmake).
target_link_libraries(fairway PRIVATE fairway_client fairway_zmtp_client fairway_auth_for_cli fairway_warnings
  CLI11::CLI11)
target_compile_definitions(fairway PRIVATE FAIRWAY_VERSION="${PROJECT_VERSION}")

# fairway-slurm: Slurm's command names (sbatch, squeue, ...) over the same client code, one
# binary reached through links of those names in build/slurm/bin (a site puts the installed
# lib/fairway/slurm/bin first on PATH to opt in; package component fairway-slurm).
add_executable(fairway-slurm client/slurm/main.cpp $<TARGET_OBJECTS:fairway_command>)
set_target_properties(fairway-slurm PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/slurm)
target_link_options(fairway-slurm PRIVATE -static -static-libstdc++ -static-libgcc -Wl,--as-needed)
target_link_libraries(fairway-slurm PRIVATE fairway_client fairway_zmtp_client fairway_auth_for_cli fairway_warnings
  CLI11::CLI11)
target_compile_definitions(fairway-slurm PRIVATE FAIRWAY_VERSION="${PROJECT_VERSION}")
set(fairway_slurm_commands sbatch srun salloc squeue scancel sacct sinfo scontrol sprio sshare sdiag sacctmgr)
foreach(cmd ${fairway_slurm_commands})
  add_custom_command(TARGET fairway-slurm POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/slurm/bin
    COMMAND ${CMAKE_COMMAND} -E create_symlink ../fairway-slurm ${CMAKE_BINARY_DIR}/slurm/bin/${cmd}
    VERBATIM)
endforeach()
