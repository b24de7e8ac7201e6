#include "shared/systemd/systemd_integration.h"

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#include <sys/stat.h>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "shared/base/log.h"

namespace fairway {
namespace {

int priority_of(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug:
      return 7;
    case LogLevel::kInfo:
      return 6;
    case LogLevel::kWarning:
      return 4;
    case LogLevel::kError:
      return 3;
  }
  return 6;
}

// Journal field names are upper-case letters, digits and underscores.
std::string field_name(std::string_view key) {
  if (key == "job") return std::string("JOB_ID");
  std::string f;
  for (char c : key) {
    f.push_back(std::isalnum(static_cast<unsigned char>(c)) != 0
                    ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                    : '_');
  }
  return f;
}

void journal_sink(LogLevel level, std::string_view event, std::initializer_list<LogField> fields,
                  const std::string& line) {
  std::vector<std::string> parts;
  auto add = [&](std::string name, std::string_view value) {
    name.push_back('=');
    name.append(value);
    parts.push_back(std::move(name));
  };
  add("MESSAGE", line);
  add("PRIORITY", std::to_string(priority_of(level)));
  add("FAIRWAY_EVENT", event);
  for (const auto& [k, v] : fields) add(field_name(k), v);
  std::vector<iovec> iov;
  iov.reserve(parts.size());
  for (auto& p : parts) iov.push_back({p.data(), p.size()});
  sd_journal_sendv(iov.data(), static_cast<int>(iov.size()));
}

}  // namespace

void use_journal_if_connected() {
  // systemd sets JOURNAL_STREAM to the device:inode of the journal stream it gave us;
  // only trust it while stderr is still that stream.
  const char* js = std::getenv("JOURNAL_STREAM");
  if (js == nullptr) return;
  struct stat st {};
  if (fstat(2, &st) != 0) return;
  const std::string mine = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  if (mine == js) set_log_sink(&journal_sink);
}

void notify_ready() {
  sd_notify(0, "READY=1");
}
void notify_stopping() {
  sd_notify(0, "STOPPING=1");
}

void notify_reloading() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const std::string msg = "RELOADING=1\nMONOTONIC_USEC=" +
                          std::to_string(static_cast<long long>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000);
  sd_notify(0, msg.c_str());
}

void notify_status(const std::string& line) {
  sd_notify(0, ("STATUS=" + line).c_str());
}

void notify_watchdog() {
  // sd_watchdog_enabled also checks WATCHDOG_PID, so a child that inherited the
  // environment never pings for its parent.
  static const bool enabled = sd_watchdog_enabled(0, nullptr) > 0;
  if (enabled) sd_notify(0, "WATCHDOG=1");
}

}  // namespace fairway
