# agent/os: the agent's contact with the operating system (hwloc discovery, process
# launching). A glob, so files added by other agent work join the library without edits.
file(GLOB fairway_agent_os_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/agent/os/*.cpp)
list(FILTER fairway_agent_os_srcs EXCLUDE REGEX ".*/main\\.cpp$")
if(fairway_agent_os_srcs)
  add_library(fairway_agent_os STATIC ${fairway_agent_os_srcs})
  target_include_directories(fairway_agent_os PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fairway_agent_os PUBLIC fairway_model PkgConfig::HWLOC
    PRIVATE fairway_warnings)
endif()
