#include "agent/os/launch_workers.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

namespace fairway::agent {

// Owned jointly by the pool and its (detached) workers: a worker stuck in a launch when
// the pool goes keeps what it uses alive, the launcher's copy included.
struct LaunchWorkers::Shared {
  explicit Shared(ProcessLauncher l) : launcher(std::move(l)) {}
  ~Shared() {
    if (event_fd >= 0) ::close(event_fd);
  }
  struct Work {
    LaunchRequest request;
    CgroupAttach attach;
  };
  ProcessLauncher launcher;
  int event_fd = -1;
  std::mutex mu;
  std::condition_variable wake;
  std::deque<Work> queue;
  std::vector<Done> done;
  std::size_t in_flight = 0;  // queued or being launched
  bool stopping = false;

  void run() {
    std::unique_lock lock(mu);
    for (;;) {
      wake.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;  // stopping
      Work w = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      Done d{w.request.job, w.request.step, launcher.launch(w.request, &w.attach)};
      w.attach = CgroupAttach();  // its fds are the child's now (or no longer needed)
      lock.lock();
      done.push_back(std::move(d));
      --in_flight;
      const std::uint64_t one = 1;
      [[maybe_unused]] const ssize_t n = ::write(event_fd, &one, sizeof one);
    }
  }
};

LaunchWorkers::LaunchWorkers(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}

Result<std::unique_ptr<LaunchWorkers>> LaunchWorkers::start(const ProcessLauncher& launcher, int threads) {
  auto shared = std::make_shared<Shared>(launcher);
  shared->event_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (shared->event_fd < 0)
    return make_error(ErrorCode::kIo, std::string("eventfd: ") + std::strerror(errno));
  for (int i = 0; i < std::max(threads, 1); ++i) {
    std::thread([shared] { shared->run(); }).detach();
  }
  return std::unique_ptr<LaunchWorkers>(new LaunchWorkers(std::move(shared)));
}

LaunchWorkers::~LaunchWorkers() {
  {
    std::lock_guard lock(shared_->mu);
    shared_->stopping = true;
    shared_->queue.clear();
  }
  shared_->wake.notify_all();
}

void LaunchWorkers::submit(LaunchRequest request, CgroupAttach attach) {
  {
    std::lock_guard lock(shared_->mu);
    shared_->queue.push_back({std::move(request), std::move(attach)});
    ++shared_->in_flight;
  }
  shared_->wake.notify_one();
}

std::vector<LaunchWorkers::Done> LaunchWorkers::take_done() {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t n = ::read(shared_->event_fd, &count, sizeof count);
  std::lock_guard lock(shared_->mu);
  return std::exchange(shared_->done, {});
}

int LaunchWorkers::fd() const {
  return shared_->event_fd;
}

std::size_t LaunchWorkers::in_flight() const {
  std::lock_guard lock(shared_->mu);
  return shared_->in_flight;
}

}  // namespace fairway::agent
