# shared/net: the only code that includes ZeroMQ (DESIGN.md section 2).
file(GLOB fairway_net_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/shared/net/*.cpp)
if(fairway_net_srcs)
  add_library(fairway_net STATIC ${fairway_net_srcs})
  target_include_directories(fairway_net PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fairway_net PUBLIC fairway_wire PkgConfig::ZMQ PRIVATE fairway_warnings)
endif()
