# fairway-agent: the pure per-node core (slot ledger, job supervisor), the OS layer (hwloc
# discovery, process launching, reaping, checkpoints) and the daemon. Globbed per dir.
file(GLOB fairway_agent_core_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/agent/core/*.cpp)
add_library(fairway_agent_core STATIC ${fairway_agent_core_srcs})
target_include_directories(fairway_agent_core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_agent_core PUBLIC fairway_model PRIVATE fairway_warnings)

# The launcher takes the wire's JobProgram as it arrives in LaunchJob, hence fairway_wire.
file(GLOB fairway_agent_os_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/agent/os/*.cpp)
add_library(fairway_agent_os STATIC ${fairway_agent_os_srcs})
target_include_directories(fairway_agent_os PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_agent_os PUBLIC fairway_model fairway_agent_core fairway_wire
  PkgConfig::HWLOC PRIVATE fairway_warnings)

file(GLOB fairway_agent_daemon_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/agent/daemon/*.cpp)
list(FILTER fairway_agent_daemon_srcs EXCLUDE REGEX ".*/main\\.cpp$")
if(fairway_agent_daemon_srcs)
  add_library(fairway_agent_daemon STATIC ${fairway_agent_daemon_srcs})
  target_include_directories(fairway_agent_daemon PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fairway_agent_daemon PUBLIC fairway_agent_os fairway_agent_core fairway_wire
    fairway_config PRIVATE fairway_warnings)
  add_executable(fairway-agent agent/daemon/main.cpp)
  add_dependencies(fairway-agent fairway-step)
  target_link_libraries(fairway-agent PRIVATE fairway_agent_daemon fairway_net fairway_config_io
    fairway_systemd fairway_warnings CLI11::CLI11)
  set_source_files_properties(agent/daemon/main.cpp PROPERTIES COMPILE_OPTIONS -Wno-null-dereference)
endif()

# fairway-step: a node's share of a job step (fairway run), started by the agent as the
# job's user. No libzmq: it forks the user's tasks, and a plain TCP stream is all it needs.
add_library(fairway_step_relay STATIC ${CMAKE_CURRENT_SOURCE_DIR}/agent/step/relay_plan.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/agent/step/step_relay.cpp ${CMAKE_CURRENT_SOURCE_DIR}/agent/step/pmi_wire.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/agent/step/pmi_server.cpp ${CMAKE_CURRENT_SOURCE_DIR}/agent/step/pmix_server.cpp)
target_include_directories(fairway_step_relay PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_step_relay PUBLIC fairway_base fairway_model fairway_zmtp_client PRIVATE fairway_warnings)
# srun --mpi=pmix: the OpenPMIx server library (Debian's libpmix-dev, which Open MPI's
# packages use too); without it the relay refuses pmix steps, naming what is missing.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PMIX QUIET IMPORTED_TARGET pmix)
endif()
if(PMIX_FOUND)
  target_compile_definitions(fairway_step_relay PRIVATE FAIRWAY_HAVE_PMIX=1)
  # Its headers are third-party C: included as system headers, so that our warnings-as-
  # errors do not apply to their macros.
  target_include_directories(fairway_step_relay SYSTEM PRIVATE ${PMIX_INCLUDE_DIRS})
  target_link_libraries(fairway_step_relay PRIVATE ${PMIX_LINK_LIBRARIES})
  target_link_options(fairway_step_relay PUBLIC ${PMIX_LDFLAGS_OTHER})
else()
  message(STATUS "OpenPMIx (libpmix-dev) not found: fairway-step will refuse srun --mpi=pmix")
endif()
add_executable(fairway-step agent/step/main.cpp)
target_link_libraries(fairway-step PRIVATE fairway_step_relay fairway_warnings)
