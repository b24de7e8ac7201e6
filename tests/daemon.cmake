# Tests of coordinator/daemon (the job store and, later, the daemon's other pieces).
if(TARGET fairway_daemon)
  fairway_test_dir(daemon_test coordinator/daemon fairway_daemon)
endif()
