# shared/auth: MUNGE credentials (libmunge), bound to the request they carry by a SHA-256
# digest (libsodium, which libzmq already loads): who a remote client is, as HPC sites
# already establish it.
pkg_check_modules(MUNGE REQUIRED IMPORTED_TARGET munge)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
add_library(fairway_auth STATIC shared/auth/munge_credential.cpp)
target_include_directories(fairway_auth PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(fairway_auth PUBLIC fairway_base PRIVATE PkgConfig::MUNGE PkgConfig::SODIUM
  fairway_warnings)

# The same for the `fairway` CLI, from the static archives that Debian's libmunge-dev and
# libsodium-dev ship when present: two shared libraries fewer to load in every command.
find_library(FAIRWAY_MUNGE_STATIC NAMES libmunge.a)
find_library(FAIRWAY_SODIUM_STATIC NAMES libsodium.a)
add_library(fairway_auth_for_cli STATIC shared/auth/munge_credential.cpp)
target_include_directories(fairway_auth_for_cli PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_include_directories(fairway_auth_for_cli PRIVATE ${MUNGE_INCLUDE_DIRS} ${SODIUM_INCLUDE_DIRS})
if(FAIRWAY_MUNGE_STATIC AND FAIRWAY_SODIUM_STATIC)
  target_link_libraries(fairway_auth_for_cli PUBLIC fairway_base ${FAIRWAY_MUNGE_STATIC} ${FAIRWAY_SODIUM_STATIC}
    PRIVATE fairway_warnings)
else()
  target_link_libraries(fairway_auth_for_cli PUBLIC fairway_base PRIVATE PkgConfig::MUNGE PkgConfig::SODIUM
    fairway_warnings)
endif()
