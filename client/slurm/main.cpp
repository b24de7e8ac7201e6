// fairway-slurm: Slurm's commands (sbatch, squeue, scancel, sacct, sinfo, scontrol, srun,
// salloc, sprio, sshare, sdiag) on Fairway, one binary called through links of those names
// (or as `fairway-slurm squeue ...`). Each call is read into the typed options of the client
// command that does the same and run in this process (slurm_call.h), or for srun and salloc
// translated into the fairway command line (slurm_commands.h); what it prints says
// "squeue: error: ..." where fairway says "fairway: error: ...", as Slurm's commands do.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <streambuf>
#include <string>
#include <vector>

#include "client/fairway/fairway_command.h"
#include "client/slurm/slurm_call.h"
#include "client/slurm/slurm_commands.h"
#include "shared/base/standard_descriptors.h"

extern char** environ;

namespace {

// Passes lines to `out`, each that starts "fairway: " starting "<command>: " instead, and
// an unknown option refused in Slurm's words (with Slurm's exit code, usage_exit()).
class RenamedLines final : public std::streambuf {
 public:
  RenamedLines(std::ostream& out, std::string command)
      : out_(out), command_(command), prefix_(std::move(command) + ": ") {}
  std::optional<int> usage_exit() const { return usage_exit_; }
  ~RenamedLines() override { flush_line(); }
  RenamedLines(const RenamedLines&) = delete;
  RenamedLines& operator=(const RenamedLines&) = delete;

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    line_.push_back(traits_type::to_char_type(c));
    if (c == '\n') flush_line();
    return c;
  }
  // Whole runs of text at once: a listing of 10,000 lines is not read a character at a time.
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize at = 0;
    while (at < n) {
      const void* nl = std::memchr(s + at, '\n', static_cast<std::size_t>(n - at));
      const std::streamsize end = nl != nullptr ? static_cast<const char*>(nl) - s + 1 : n;
      line_.append(s + at, static_cast<std::size_t>(end - at));
      if (nl != nullptr) flush_line();
      at = end;
    }
    return n;
  }
  int sync() override {
    flush_line();
    out_.flush();
    return 0;
  }

 private:
  void flush_line() {
    if (line_.empty()) return;
    static constexpr std::string_view kOurs = "fairway: ";
    static constexpr std::string_view kError = "fairway: error: ";
    if (line_.starts_with(kError) && line_.ends_with('\n')) {
      const std::string_view message =
          std::string_view(line_).substr(kError.size(), line_.size() - kError.size() - 1);
      if (auto usage = fairway::cli::slurm_usage_error(command_, message)) {
        line_ = usage->text;
        usage_exit_ = usage->exit_code;
      }
    }
    if (line_.starts_with(kOurs)) line_.replace(0, kOurs.size(), prefix_);
    out_ << line_;
    line_.clear();
  }

  std::ostream& out_;
  std::string command_;
  std::string prefix_;
  std::optional<int> usage_exit_;
  std::string line_;
};

}  // namespace

int main(int argc, char** argv) {
  // srun with its stdin closed (mpiexec -launcher slurm starts it so) must not take a
  // socket it opens for its own stdin.
  fairway::keep_standard_descriptors();
  std::string command = argc > 0 ? argv[0] : "fairway-slurm";
  if (const auto slash = command.rfind('/'); slash != std::string::npos) command = command.substr(slash + 1);
  std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  if (command == "fairway-slurm") {
    if (args.empty()) {
      std::cerr << "usage: fairway-slurm COMMAND [ARGS...], or through a link named after the command:";
      for (const auto name : fairway::cli::slurm_command_names()) std::cerr << " " << name;
      std::cerr << "\n";
      return 2;
    }
    command = args.front();
    args.erase(args.begin());
  }
  fairway::cli::SlurmInvocation invocation;
  // A static binary makes no NSS calls: the login name comes from the environment.
  for (const char* name : {"USER", "LOGNAME"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0' && invocation.user.empty())
      invocation.user = v;
  }
  for (char** e = environ; *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq == nullptr) continue;
    const std::string name(*e, static_cast<std::size_t>(eq - *e));
    if (name.starts_with("SBATCH_") || name.starts_with("SALLOC_") || name.starts_with("SLURM_")) {
      invocation.env.emplace_back(name, eq + 1);
    }
  }
  RenamedLines out_lines(std::cout, command), err_lines(std::cerr, command);
  std::ostream out(&out_lines), err(&err_lines);
  const fairway::cli::Output io{out, err};
  auto translated = fairway::cli::translate_slurm_command(command, args, invocation);
  if (!translated) {
    err << "fairway: error: " << translated.error().message << "\n";
    err.flush();
    return err_lines.usage_exit().value_or(1);
  }
  if (translated->usage_error) {
    const int code = fairway::cli::report_error(io, *translated->usage_error, fairway::cli::kExitUsage);
    err.flush();
    return err_lines.usage_exit().value_or(code);
  }
  if (translated->fairway_version) {
    out << "fairway " << FAIRWAY_VERSION << "\n";
    out.flush();
    return 0;
  }
  if (translated->call) {
    const int code = fairway::cli::run_slurm_call(*translated->call, io);
    out.flush();
    err.flush();
    return err_lines.usage_exit().value_or(code);
  }
  if (translated->local_output) {
    out << *translated->local_output;
    out.flush();
    return 0;
  }
  const int code = fairway::cli::run_fairway(translated->fairway_args, io);
  out.flush();
  err.flush();
  return err_lines.usage_exit().value_or(code);
}
