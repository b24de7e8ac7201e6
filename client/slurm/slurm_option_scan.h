// How the Slurm front-ends read their command lines: each command's option table, the
// scan of its words against it (refused in getopt's words), and fairway's parser's refusals.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"

namespace fairway::cli {

enum class Action : std::uint8_t {
  kPass,    // read as its table entry: the typed options take it by its long name
  kRename,  // fairway shares spelled it `to` (sshare): the word its refusals name
  kDrop,    // accepted, no effect here (verbosity, cluster-wide views that are the default)
  kRefuse,  // cannot be honoured: a usage error naming it and `to` (why)
};

struct SlurmOption {
  char short_name;  // '\0': none
  std::string_view long_name;
  bool takes_value;
  Action action;
  std::string_view to = {};  // kRename: the fairway option ("--user"); kRefuse: why
};

struct Scanned {
  std::vector<std::string> out;
  bool seen_format = false;  // -o/--format, -l, --json, --start: squeue's default layout is off
  std::string help;          // --help/--usage: what to print instead of running anything
  std::map<const void*, std::size_t> value_at;  // where each option's value is in `out`
  // The same options read into the table's own entries, in order, for the commands that
  // fill typed options: a flag with no value, a bare word with no option (nullptr).
  struct Given {
    const SlurmOption* option;
    std::string value;
  };
  std::vector<Given> given;
  std::map<const void*, std::size_t> given_at;  // where each option's value is in `given`
};

// Options whose value is a comma-separated list in Slurm's commands: given twice, the
// lists are joined.
bool is_list_option(std::string_view name);
// --help: the options this front-end takes, from its table, and where their meaning is.
std::string usage_text(std::string_view command, const std::vector<SlurmOption>& table);
// Rewrites the options of `args` by `table` up to the first word that is not an option
// (sbatch's script, srun's command: what follows is theirs). An option not in the table is
// refused in getopt's words, as Slurm's commands refuse it.
Result<Scanned> scan(std::string_view command, std::vector<std::string> args,
                     const std::vector<SlurmOption>& table, bool stop_at_word);
// fairway's parser's words for bare words a command takes none of: the last named first.
std::string unexpected_words(const std::vector<std::string>& words);
// fairway's parser's words for a value given by two options that fill one field.
std::string given_twice(std::string_view field, int times);
// fairway's parser's refusal of the words a fairway subcommand with no positional words
// was given (after a "--", every word and `trailer`); nullopt when there is none.
std::optional<std::string> words_not_expected(const Scanned& scanned,
                                              const std::vector<std::string>& trailer);

}  // namespace fairway::cli
