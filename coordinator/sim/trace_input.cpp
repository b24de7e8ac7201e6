#include "coordinator/sim/trace_input.h"
#include "shared/base/try.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace fairway::sim {
namespace {

constexpr std::size_t kInitialBuffer = std::size_t{1} << 18;
// zlib's own input buffer; the default 8 KiB makes gzread noticeably slower.
constexpr unsigned kZlibBuffer = 1u << 17;

gzFile as_gz(void* f) {
  return static_cast<gzFile>(f);
}

}  // namespace

void LineReader::GzCloser::operator()(void* f) const {
  if (f != nullptr) gzclose(as_gz(f));
}

LineReader::LineReader(std::string path, void* file)
    : path_(std::move(path)), file_(file), buf_(kInitialBuffer) {}

LineReader::LineReader(LineReader&&) noexcept = default;
LineReader& LineReader::operator=(LineReader&&) noexcept = default;
LineReader::~LineReader() = default;

Result<LineReader> LineReader::open(const std::string& path) {
  errno = 0;
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    const char* why = errno != 0 ? std::strerror(errno) : "out of memory";
    return make_error(ErrorCode::kIo, "cannot open " + path + ": " + why);
  }
  gzbuffer(f, kZlibBuffer);
  return LineReader(path, f);
}

Status LineReader::refill() {
  // Keep the unfinished line, moved to the front; grow only for a line longer than the
  // whole buffer.
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  const auto room = static_cast<unsigned>(std::min<std::size_t>(buf_.size() - end_, 1u << 30));
  const int n = gzread(as_gz(file_.get()), buf_.data() + end_, room);
  int err = Z_OK;
  const char* msg = gzerror(as_gz(file_.get()), &err);
  if (n < 0 || (err != Z_OK && err != Z_STREAM_END)) {
    // A truncated .gz lands here ("unexpected end of file"), not as a silent short read.
    return make_error(ErrorCode::kIo, "error reading " + path_ + " after line " + std::to_string(line_no_) +
                                          ": " + (msg != nullptr ? msg : "read failed"));
  }
  if (n == 0) eof_ = true;
  end_ += static_cast<std::size_t>(n);
  return ok_status();
}

Result<bool> LineReader::next(std::string_view& line) {
  for (;;) {
    const char* from = buf_.data() + begin_ + scanned_;
    const std::size_t avail = end_ - begin_ - scanned_;
    const void* nl = avail > 0 ? std::memchr(from, '\n', avail) : nullptr;
    std::size_t len = 0;
    if (nl != nullptr) {
      len = static_cast<std::size_t>(static_cast<const char*>(nl) - (buf_.data() + begin_));
    } else if (eof_) {
      if (begin_ == end_) return false;
      len = end_ - begin_;  // a last line without '\n'
    } else {
      scanned_ = end_ - begin_;
      FAIRWAY_TRY(refill());
      continue;
    }
    line = std::string_view(buf_.data() + begin_, len);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    begin_ = std::min(end_, begin_ + len + 1);
    scanned_ = 0;
    ++line_no_;
    return true;
  }
}

Error line_error(const std::string& path, std::int64_t line, std::string message) {
  return Error{ErrorCode::kInvalidArgument, path + ":" + std::to_string(line) + ": " + std::move(message)};
}

Status finish_workload(Workload& w, const std::string& path) {
  std::vector<std::pair<std::uint64_t, std::int64_t>> ids;  // (id, line)
  ids.reserve(w.jobs.size());
  for (const auto& j : w.jobs) ids.emplace_back(j.spec.id.value(), j.line);
  std::sort(ids.begin(), ids.end());
  for (std::size_t i = 1; i < ids.size(); ++i) {
    if (ids[i].first == ids[i - 1].first) {
      return std::unexpected(line_error(path, ids[i].second,
                                        "duplicate job id " + std::to_string(ids[i].first) +
                                            " (first used on line " + std::to_string(ids[i - 1].second) +
                                            ")"));
    }
  }
  // A job array's tasks take the ids after its own: no other job may use one.
  for (const auto& j : w.jobs) {
    if (j.spec.array.empty()) continue;
    const std::uint64_t first = j.spec.id.value() + 1;
    const std::uint64_t last = j.spec.id.value() + static_cast<std::uint64_t>(j.spec.array.count());
    const auto clash = std::lower_bound(ids.begin(), ids.end(), std::pair{first, std::int64_t{0}});
    if (clash != ids.end() && clash->first <= last) {
      return std::unexpected(line_error(
          path, clash->second,
          "job id " + std::to_string(clash->first) + " is taken by the tasks of array " +
              std::to_string(j.spec.id.value()) + " (line " + std::to_string(j.line) + ", ids " +
              std::to_string(first) + "-" + std::to_string(last) + "): leave the array's tasks their ids"));
    }
  }
  const auto before = [](const WorkloadJob& a, const WorkloadJob& b) {
    if (a.spec.submit_time != b.spec.submit_time) return a.spec.submit_time < b.spec.submit_time;
    return a.spec.id < b.spec.id;
  };
  // Traces are nearly always in order already; a ~250-byte job makes a needless sort of
  // 200k of them cost more than the parse.
  if (!std::is_sorted(w.jobs.begin(), w.jobs.end(), before)) {
    std::stable_sort(w.jobs.begin(), w.jobs.end(), before);
  }
  return ok_status();
}

}  // namespace fairway::sim
