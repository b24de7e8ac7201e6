// `fairway history`: finished jobs from the coordinator's store, sacct-like (state, exit
// code, times, cores, nodes, peak memory, CPU time), as a table, `|`-separated fields
// (-P) or JSON. Pure apart from the transport and streams it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/fairway/commands.h"

namespace fairway::cli {

struct HistoryOptions {
  std::string user, account, partition, states, jobs;
  std::string names;  // --name: only jobs with one of these names (comma-separated)
  // -S/-E: YYYY-MM-DD[THH:MM[:SS]] or now-N[units]. Without -S (and -j): since midnight.
  std::string start, end;
  std::string format;         // -o/--format: sacct field names
  bool parsable = false;      // -P: "|" between fields, as sacct --parsable2
  bool trailing_bar = false;  // -p: and after the last, as sacct --parsable
  bool json = false;
  bool noheader = false;  // -n: rows only, as sacct --noheader
  // --live: the jobs still waiting or running too (Slurm's sacct lists them with the
  // finished ones; tools poll it for a job's state).
  bool live = false;
  // sacct's own table (the sacct front-end): each field in Slurm's default width (or the
  // %WIDTH given), JobIDs left-justified and the rest right-justified, a line of dashes
  // under the header, a blank after every field; Slurm's default fields.
  bool sacct_table = false;
  // sacct without -X: each job's batch script on a line of its own (ID.batch) under it.
  bool batch_steps = false;
};

// -S/-E values: a local date and time, or now-N with seconds/minutes/hours/days/weeks.
Result<Time> parse_history_time(std::string_view option, std::string_view text, Time now);

// -S/-E together: each bound as parse_history_time reads it, unset when its text is empty.
struct TimeWindow {
  std::optional<Time> from, to;
};
Result<TimeWindow> parse_history_window(const std::string& start, const std::string& end, Time now);

int run_history(const HistoryOptions& o, Time now, const Transport& transport, const Output& io);

// sacct's -o/--format: comma-separated field names (any case), each with an optional
// %WIDTH (values cut to it end in '+', as sacct marks them). Errors name the field.
struct HistoryColumn {
  std::size_t field = 0;
  int width = 0;  // 0: as wide as the column's widest value
};
inline constexpr const char* kHistoryDefaultFormat =
    "JobID,JobName,User,Account,Partition,State,ExitCode,Start,End,Elapsed,AllocCPUS,NodeList,MaxRSS,"
    "TotalCPU";
Result<std::vector<HistoryColumn>> parse_history_format(const std::string& format);

inline constexpr const char* kSacctDefaultFormat = "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";

// sacct's MaxRSS of `bytes` (a larger unit only while it divides evenly: "84500K", "2G")
// and its TotalCPU of `ms` ("00:04.094", "01:02:03", "1-00:00:05"); "" for none.
std::string sacct_memory(std::optional<std::int64_t> bytes);
std::string sacct_cpu_time(std::optional<std::int64_t> ms);

// `columns` empty: kHistoryDefaultFormat. `id_suffixes`, when given, one per row: what
// JobID and JobIDRaw get after the id (".batch" for a batch script's line, "" for a job's).
std::string render_history(const wire::JobQueryReply& reply, bool parsable,
                           const std::vector<HistoryColumn>& columns = {}, bool header = true,
                           bool trailing_bar = false, const std::vector<std::string>* id_suffixes = nullptr);
// HistoryOptions::sacct_table's layout.
std::string render_sacct_table(const wire::JobQueryReply& reply, const std::vector<HistoryColumn>& columns,
                               bool header, const std::vector<std::string>* id_suffixes = nullptr);

}  // namespace fairway::cli
