# shared/auth: MUNGE credentials (libmunge), bound to the request they carry by a SHA-256
# digest (libsodium, which libzmq already loads): who a remote client is, as HPC sites
# already establish it.
pkg_check_modules(MUNGE REQUIRED IMPORTED_TARGET munge)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
add_library(fairway_auth STATIC shared/auth/munge_credential.cpp)
target_include_directories(fairway_auth PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_auth PUBLIC fairway_base PRIVATE PkgConfig::MUNGE PkgConfig::SODIUM
  fairway_warnings)
