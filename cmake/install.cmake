# What `cmake --install` and the Debian package (cpack -G DEB) put in place: the binaries,
# the systemd units pointing at them, sysusers.d/tmpfiles.d entries, an example config,
# the site profiles and the docs. Paths follow GNUInstallDirs (prefix /usr for a package).
include(GNUInstallDirs)
# Two Debian packages: fairway (everything not named otherwise) and fairway-slurm.
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME fairway)

install(TARGETS fairway fairway-coordinator fairway-agent fairway-step fairway-keygen fairway-sim
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Slurm's command names, opt-in: a site puts lib/fairway/slurm/bin first on PATH.
install(TARGETS fairway-slurm RUNTIME DESTINATION lib/fairway/slurm COMPONENT fairway-slurm)
install(DIRECTORY ${CMAKE_BINARY_DIR}/slurm/bin DESTINATION lib/fairway/slurm COMPONENT fairway-slurm)

# The units name their binaries by absolute path: rewritten when installed, for the prefix
# of that install (cmake --install --prefix, or /usr in the package), not the configured one.
set(FAIRWAY_UNIT_DIR "lib/systemd/system" CACHE STRING "where the systemd units go, under the prefix")
foreach(unit fairway-coordinator.service fairway-agent.service)
  install(CODE "
    file(READ \"${CMAKE_CURRENT_SOURCE_DIR}/systemd/${unit}\" text)
    string(REPLACE \"/usr/bin/\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/\" text \"\${text}\")
    message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${FAIRWAY_UNIT_DIR}/${unit}\")
    file(WRITE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${FAIRWAY_UNIT_DIR}/${unit}\" \"\${text}\")
  ")
endforeach()
install(FILES systemd/fairway.sysusers DESTINATION lib/sysusers.d RENAME fairway.conf)
install(FILES systemd/fairway.tmpfiles DESTINATION lib/tmpfiles.d RENAME fairway.conf)

install(FILES examples/fairway.toml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(DIRECTORY examples/profiles examples/sim DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES README.md docs/cli.md docs/config.md docs/policies.md docs/security.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME fairway)
set(CPACK_PACKAGE_CONTACT "Fairway developers <fairway@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "HPC workload manager: coordinator, node agent, CLI and simulator")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_SET_DESTDIR ON)  # the units are rewritten for CMAKE_INSTALL_PREFIX: it must be /usr
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL fairway fairway-slurm)
set(CPACK_DEBIAN_FAIRWAY_PACKAGE_NAME fairway)
set(CPACK_DEBIAN_FAIRWAY-SLURM_PACKAGE_NAME fairway-slurm)
set(CPACK_DEBIAN_FAIRWAY-SLURM_DESCRIPTION
    "Slurm's command names (sbatch, squeue, srun, ...) on Fairway, in /usr/lib/fairway/slurm/bin")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_STRIP_FILES ON)  # debug info stays in the build tree
# The runtime libraries the binaries link (the CLI links only libc); shlibdeps would need
# dpkg-shlibdeps on the build machine, so they are named here.
set(CPACK_DEBIAN_FAIRWAY_PACKAGE_DEPENDS
    "libzmq5, libhwloc15, libsqlite3-0, libsystemd0, libmunge2, munge, libstdc++6, zlib1g")
set(CPACK_DEBIAN_FAIRWAY_PACKAGE_CONTROL_EXTRA "${CMAKE_CURRENT_SOURCE_DIR}/packaging/postinst")
# The front-ends are one static program: they need nothing but a coordinator to talk to.
set(CPACK_DEBIAN_FAIRWAY-SLURM_PACKAGE_DEPENDS "")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
