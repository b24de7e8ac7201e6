# coordinator/daemon: the coordinator daemon's library (persistence, endpoints, lifecycle).
# Sources are globbed so that new daemon files need no edit here; main.cpp is the binary's.
file(GLOB fairway_daemon_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/coordinator/daemon/*.cpp)
list(FILTER fairway_daemon_srcs EXCLUDE REGEX ".*/main\\.cpp$")
if(fairway_daemon_srcs)
  add_library(fairway_daemon STATIC ${fairway_daemon_srcs})
  target_include_directories(fairway_daemon PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fairway_daemon PUBLIC fairway_model PkgConfig::SQLITE3
    PRIVATE fairway_warnings)
endif()
