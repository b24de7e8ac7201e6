#include "shared/model/output_name.h"

namespace fairway {
namespace {

// Slurm's NO_VAL: what %a gives for a job that is not an array task.
constexpr std::uint32_t kNoArrayTask = 4294967294u;

std::string zero_padded(std::uint64_t v, std::size_t width) {
  std::string s = std::to_string(v);
  if (s.size() < width) s.insert(0, width - s.size(), '0');
  return s;
}

}  // namespace

std::string expand_output_path(std::string_view pattern, const OutputNameFields& f,
                               std::string_view working_dir, std::string_view fallback,
                               OutputExpansion expansion) {
  const bool batch_step = expansion == OutputExpansion::kBatchStep;
  if (pattern.empty()) return std::string(fallback);
  std::string path;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 >= pattern.size()) {
      path += pattern[i];
      continue;
    }
    std::size_t k = i + 1;
    std::size_t width = 0;
    while (k < pattern.size() && pattern[k] >= '0' && pattern[k] <= '9' && width < 64) {
      width = width * 10 + static_cast<std::size_t>(pattern[k] - '0');
      ++k;
    }
    if (k >= pattern.size()) {
      path += pattern.substr(i);
      break;
    }
    std::string piece;
    bool known = true;
    switch (pattern[k]) {
      case 'j':
      case 'J':
        piece = zero_padded(f.job.value(), width);
        break;
      case 'A':
        piece = zero_padded(f.array_job.value() != 0 ? f.array_job.value() : f.job.value(), width);
        break;
      case 'a':
        piece = zero_padded(
            f.array_job.value() != 0 ? static_cast<std::uint64_t>(f.array_task) : kNoArrayTask, width);
        break;
      case 't':
      case 'n':
        piece = zero_padded(0, width);
        known = batch_step;
        break;
      case 's':
        piece = "batch";
        known = batch_step;
        break;
      case 'u':
        piece = std::string(f.user);
        break;
      case 'x':
        piece = std::string(f.job_name);
        break;
      case 'N':
        piece = std::string(f.node);
        known = batch_step;
        break;
      case '%':
        piece = width == 0 ? "%" : "";
        known = width == 0 && batch_step;
        break;
      default:
        known = false;
    }
    if (!known) {
      path += pattern[i];  // "%b" stays "%b"
      continue;
    }
    path += piece;
    i = k;
  }
  if (path.empty()) return std::string(fallback);
  if (path.front() == '/') return path;
  std::string absolute(working_dir);
  if (absolute.empty() || absolute.back() != '/') absolute += '/';
  return absolute + path;
}

}  // namespace fairway
