# coordinator/daemon: the coordinator's service, store and event loop; fairway-coordinator.
add_library(fairway_systemd STATIC shared/systemd/systemd_integration.cpp)
target_include_directories(fairway_systemd PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_systemd PUBLIC fairway_base PRIVATE PkgConfig::SYSTEMD fairway_warnings)

file(GLOB fairway_daemon_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/coordinator/daemon/*.cpp)
list(FILTER fairway_daemon_srcs EXCLUDE REGEX ".*/main\\.cpp$")
add_library(fairway_daemon STATIC ${fairway_daemon_srcs})
target_include_directories(fairway_daemon PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_daemon PUBLIC fairway_core fairway_wire fairway_model fairway_net
  fairway_auth PkgConfig::SQLITE3 PRIVATE fairway_warnings)

add_executable(fairway-coordinator coordinator/daemon/main.cpp)
target_link_libraries(fairway-coordinator PRIVATE fairway_daemon fairway_net fairway_config_io
  fairway_systemd fairway_warnings CLI11::CLI11)
# GCC 12 reports a false null dereference inside CLI11's inlined vector<string> code.
set_source_files_properties(coordinator/daemon/main.cpp PROPERTIES COMPILE_OPTIONS -Wno-null-dereference)

# fairway-keygen: CURVE key pairs for the agent channel (docs/security.md).
add_executable(fairway-keygen tools/fairway_keygen.cpp)
target_link_libraries(fairway-keygen PRIVATE fairway_net fairway_base fairway_warnings CLI11::CLI11)
# GCC 12's false null dereference inside CLI11's vector<string> code, as for main.cpp.
set_source_files_properties(tools/fairway_keygen.cpp PROPERTIES COMPILE_OPTIONS -Wno-null-dereference)
