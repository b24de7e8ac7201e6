// Plumbing shared by the workload readers: a line reader over plain or gzip files, and
// the final sort and duplicate-id check. Internal to coordinator/sim.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "coordinator/sim/workload.h"
#include "shared/base/result.h"

namespace fairway::sim {

// Streams the lines of a file, gzip-compressed or not (zlib reads plain files as they
// are), so that multi-megabyte traces never need to be unpacked to disk. The returned
// views stay valid only until the next call.
class LineReader {
 public:
  static Result<LineReader> open(const std::string& path);

  LineReader(LineReader&&) noexcept;
  LineReader& operator=(LineReader&&) noexcept;
  ~LineReader();

  // True with the next line (no '\n', no trailing '\r'), false at the end of the file.
  Result<bool> next(std::string_view& line);
  // 1-based number of the line last returned.
  std::int64_t line_number() const { return line_no_; }

 private:
  struct GzCloser {
    void operator()(void* f) const;
  };
  LineReader(std::string path, void* file);
  Status refill();

  std::string path_;
  std::unique_ptr<void, GzCloser> file_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;    // first unread byte
  std::size_t end_ = 0;      // one past the last valid byte
  std::size_t scanned_ = 0;  // bytes from begin_ already known to hold no '\n'
  bool eof_ = false;
  std::int64_t line_no_ = 0;
};

// Sorts by (submit, id) and rejects a job id used twice, naming both lines.
Status finish_workload(Workload& w, const std::string& path);

// "path:line: message", the prefix every reader error carries.
Error line_error(const std::string& path, std::int64_t line, std::string message);

}  // namespace fairway::sim
