// A CoordinatorService over a fresh state directory with one 4-core node "n1", for the
// synchronous service tests: reopen() is a crash and a restart on the same store.
#pragma once

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon::test_support {

class ServiceTest : public CoordinatorFixture {
 protected:
  void SetUp() override {
    configure("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n");
    if (!HasFatalFailure()) reopen();
  }
};

}  // namespace fairway::daemon::test_support
