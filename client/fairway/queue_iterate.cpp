#include "client/fairway/queue_iterate.h"

#include <chrono>
#include <ctime>
#include <ostream>
#include <thread>

#include "client/views/text_format.h"

namespace fairway::cli {

int run_queue_iterating(const QueueOptions& o, int seconds, const Transport& transport, const Output& io) {
  if (seconds == 0) return run_queue(o, transport, io);
  // squeue -i: each listing under the date it was taken (-l has its own date line, -h
  // none), a blank line after it; until interrupted, or until the coordinator fails it.
  for (;;) {
    if (!o.long_format && !o.noheader) {
      io.out << format_ctime(Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr)))) << "\n";
    }
    if (const int rc = run_queue(o, transport, io); rc != kExitOk) return rc;
    io.out << "\n";
    io.out.flush();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
  }
}

}  // namespace fairway::cli
