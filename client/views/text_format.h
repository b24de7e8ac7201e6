// Small text pieces shared by the CLI's tables and detail views: times, spans, state codes
// and column layout. Pure apart from reading the local time zone; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shared/base/time.h"
#include "shared/model/job_state.h"

namespace fairway::cli {

// Local time as YYYY-MM-DDTHH:MM:SS (TZ decides the zone), or "N/A" for never.
std::string format_local_time(Time t);
// As ctime(3) writes it, local time ("Thu Nov 26 07:55:16 2026"): squeue -l's and sinfo -l's
// first line. "" if the time cannot be converted.
std::string format_ctime(Time t);

// "a,b,,c" -> {"a", "b", "c"}: the words of a comma list, empty ones dropped.
std::vector<std::string> comma_words(std::string_view text);

// squeue's elapsed format: M:SS, H:MM:SS, D-HH:MM:SS. Negative spans print as 0:00.
std::string format_elapsed(Duration d);

// Slurm's short state codes: PD, H, BL, R, CG, CD, F, CA, TO, PR, RQ, NF.
std::string state_code(JobState s);

// Upper-case name as scontrol shows it: PENDING, NODE_FAIL, ...
std::string state_name(JobState s);

// Lays out rows under a header with columns separated by two spaces, each as wide as its
// widest cell; the last column is not padded, and no line ends in blanks.
std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);

std::string join(const std::vector<std::string>& parts, std::string_view separator);

// A priority or factor value with at most 4 decimals and no trailing zeros.
std::string format_number(double v);

// ASCII lower case, for names the CLI matches in any case (states, keys, fields).
std::string to_lower(std::string_view s);
// ASCII upper case, for Slurm's state words (IDLE, PREEMPTMODE values).
std::string to_upper(std::string_view s);

}  // namespace fairway::cli
