#include "coordinator/daemon/private_state_dir.h"

#include "coordinator/daemon/job_store.h"
#include "shared/base/private_files.h"
#include "shared/base/try.h"

namespace fairway::daemon {

Status prepare_private_state_dir(const std::string& state_dir) {
  FAIRWAY_TRY(make_private_dir(state_dir));
  FAIRWAY_TRY(check_private(state_dir, "state directory"));
  const std::string store = state_dir + "/" + JobStore::kFileName;
  for (const std::string& file : {store, store + "-wal", store + "-shm"}) {
    FAIRWAY_TRY(check_private(file, "job store file"));
  }
  return ok_status();
}

}  // namespace fairway::daemon
