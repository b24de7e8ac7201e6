if(TARGET fairway_net)
  fairway_test_dir(net_test shared/net fairway_net fairway_zmtp_client)
endif()
