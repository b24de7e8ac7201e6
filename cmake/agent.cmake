# fairway-agent: the pure per-node core (slot ledger, job supervisor) and the OS layer
# (hwloc discovery, process launching, reaping, checkpoints). Sources are globbed per dir.
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
