# shared/net: the only code that includes ZeroMQ (docs/architecture.md section 2).
file(GLOB fairway_net_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/*.cpp)
list(FILTER fairway_net_srcs EXCLUDE REGEX ".*/(zmtp_request_client|zmtp_frames|host_resolver|step_stream|step_frames)\\.cpp$")
if(fairway_net_srcs)
  add_library(fairway_net STATIC ${fairway_net_srcs})
  target_include_directories(fairway_net PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fairway_net PUBLIC fairway_wire fairway_zmtp PkgConfig::ZMQ PRIVATE fairway_warnings)
endif()

# ZMTP as bytes (pure): the CLI's client and the coordinator's local listener share it.
add_library(fairway_zmtp STATIC ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/zmtp_frames.cpp)
target_include_directories(fairway_zmtp PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_zmtp PUBLIC fairway_base PRIVATE fairway_warnings)

# The CLI's client without libzmq (ZMTP over a plain socket): loading libzmq and its
# dependency chain was most of a short `fairway` command's run time.
# It resolves host names itself (hosts file, then DNS through glibc's resolver): the CLI is
# linked statically, and a static program must not load NSS modules.
add_library(fairway_zmtp_client STATIC ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/zmtp_request_client.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/host_resolver.cpp
  # A job step's stream (fairway run <-> fairway-step): plain TCP too.
  ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/step_stream.cpp ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/step_frames.cpp)
target_include_directories(fairway_zmtp_client PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_zmtp_client PUBLIC fairway_wire fairway_zmtp resolv PRIVATE fairway_warnings)
