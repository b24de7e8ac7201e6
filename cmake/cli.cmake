# coordinator/cli: the `fairway` command. Parsing and rendering live in fairway_cli so
# that tests can drive them without a coordinator; main.cpp only wires them to ZeroMQ.
file(GLOB fairway_cli_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/coordinator/cli/*.cpp)
list(FILTER fairway_cli_srcs EXCLUDE REGEX ".*/main\\.cpp$")
add_library(fairway_cli STATIC ${fairway_cli_srcs})
target_include_directories(fairway_cli PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_cli PUBLIC fairway_wire fairway_config_io
  PRIVATE fairway_warnings nlohmann_json::nlohmann_json)

add_executable(fairway coordinator/cli/main.cpp)
target_link_libraries(fairway PRIVATE fairway_cli fairway_net fairway_auth fairway_warnings
  CLI11::CLI11)
