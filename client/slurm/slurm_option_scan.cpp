// The scan of a Slurm command's words against its option table, and the refusals fairway's
// own parser gave for the same words (slurm_option_scan.h).
#include "client/slurm/slurm_option_scan.h"

#include <algorithm>
#include <cctype>
#include <span>

#include "shared/base/try.h"

namespace fairway::cli {

// Options whose value is a comma-separated list in Slurm's commands: given twice, the
// lists are joined.
bool is_list_option(std::string_view name) {
  static constexpr std::string_view kLists[] = {"jobs",      "user",     "users",  "accounts",   "account",
                                                "partition", "state",    "states", "name",       "qos",
                                                "nodes",     "nodelist", "steps",  "reservation"};
  return std::find(std::begin(kLists), std::end(kLists), name) != std::end(kLists);
}

// --help: the options this front-end takes, from its table, and where their meaning is.
std::string usage_text(std::string_view command, const std::vector<SlurmOption>& table) {
  std::string out = "Usage: " + std::string(command) + " [OPTIONS]\n" + "Slurm's " + std::string(command) +
                    " on Fairway (docs/slurm-compat.md). Options:\n";
  for (const SlurmOption& o : table) {
    std::string line = "  ";
    line +=
        o.short_name != '\0' ? std::string("-") + o.short_name + (o.long_name.empty() ? "" : ", ") : "    ";
    if (!o.long_name.empty()) line += "--" + std::string(o.long_name) + (o.takes_value ? "=VALUE" : "");
    if (o.action == Action::kDrop) line += "  (accepted, no effect here)";
    if (o.action == Action::kRefuse) line += "  (not supported: " + std::string(o.to) + ")";
    out += line + "\n";
  }
  return out;
}

// Rewrites the options of `args` by `table` up to the first word that is not an option
// (sbatch's script, srun's command: what follows is theirs). An option not in the table is
// refused in getopt's words, as Slurm's commands refuse it.
Result<Scanned> scan(std::string_view command, std::vector<std::string> args,
                     const std::vector<SlurmOption>& table, bool stop_at_word) {
  Scanned s;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--help" || a == "--usage") {
      s.help = usage_text(command, table);
      return s;
    }
    if (a == "--" || a.size() < 2 || a[0] != '-') {
      if (stop_at_word) {
        s.out.insert(s.out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
        return s;
      }
      s.out.push_back(a);
      s.given.push_back({nullptr, a});
      continue;
    }
    const SlurmOption* opt = nullptr;
    std::optional<std::string> value;
    if (a.starts_with("--")) {
      const std::size_t eq = a.find('=');
      const std::string_view name =
          std::string_view(a).substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      for (const SlurmOption& o : table) {
        if (o.long_name == name) opt = &o;
      }
      if (opt != nullptr && eq != std::string::npos) value = a.substr(eq + 1);
    } else {
      for (const SlurmOption& o : table) {
        if (o.short_name == a[1]) opt = &o;
      }
      if (opt != nullptr && a.size() > 2) {
        if (opt->takes_value) {
          value = a.substr(2);
        } else {
          // Bundled: -nu alice is -n -u alice; the rest is read next as an option of its own.
          args.insert(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, "-" + a.substr(2));
        }
      }
    }
    if (opt == nullptr) {
      return invalid_argument(a.starts_with("--") ? "unrecognized option '" + a + "'"
                                                  : "invalid option -- '" + std::string(1, a[1]) + "'");
    }
    if (opt->takes_value && !value) {
      if (i + 1 >= args.size()) {
        return invalid_argument("option " + a + " needs a value");
      }
      value = args[++i];
    }
    const std::string spelled =
        opt->long_name.empty() ? std::string("-") + opt->short_name : "--" + std::string(opt->long_name);
    // Given again: a list option's values add up (sacct -j 1 -j 2 is -j 1,2); any other
    // option's later value wins, as Slurm's commands read them.
    if (value && (opt->action == Action::kPass || opt->action == Action::kRename)) {
      const auto seen = s.value_at.find(opt);
      if (seen != s.value_at.end()) {
        std::string& earlier = s.out[seen->second];
        earlier = is_list_option(opt->long_name) ? earlier + "," + *value : *value;
        s.given[s.given_at.at(opt)].value = earlier;
        continue;
      }
    }
    switch (opt->action) {
      case Action::kPass:
        s.out.push_back(spelled);
        break;
      case Action::kRename:
        s.out.emplace_back(opt->to);
        break;
      case Action::kDrop:
        continue;
      case Action::kRefuse:
        return invalid_argument(spelled + " is not supported: " + std::string(opt->to));
    }
    if (value) {
      s.value_at[opt] = s.out.size();
      s.out.push_back(*value);
      s.given_at[opt] = s.given.size();
    }
    s.given.push_back({opt, value.value_or("")});
    if (opt->long_name == "format" || opt->long_name == "long" || opt->long_name == "json" ||
        opt->long_name == "start" || opt->long_name == "Format") {
      s.seen_format = true;
    }
  }
  return s;
}

// fairway's parser's words for bare words a command takes none of: the last named first.
std::string unexpected_words(const std::vector<std::string>& words) {
  std::string out;
  for (auto w = words.rbegin(); w != words.rend(); ++w) out += (out.empty() ? "" : " ") + *w;
  return std::string(words.size() == 1 ? "The following argument was not expected: "
                                       : "The following arguments were not expected: ") +
         out;
}

// fairway's parser's words for a value given by two options that fill one field.
std::string given_twice(std::string_view field, int times) {
  return "--" + std::string(field) + ": At Most 1 required but received " + std::to_string(times);
}

// fairway's parser's refusal of the words a fairway subcommand with no positional words
// was given, `sub` then `scanned.out` then `trailer` (--sprio...): each bare word, and after
// a "--" every word (the parser went back to fairway's own options, which took none of
// them); nullopt when there is none.
std::optional<std::string> words_not_expected(const Scanned& scanned,
                                              const std::vector<std::string>& trailer) {
  std::vector<bool> is_value(scanned.out.size(), false);
  for (const auto& [option, at] : scanned.value_at) is_value[at] = true;
  std::vector<std::string> unexpected;
  bool after_mark = false;
  for (std::size_t i = 0; i < scanned.out.size(); ++i) {
    const std::string& w = scanned.out[i];
    if (after_mark)
      unexpected.push_back(w);
    else if (is_value[i])
      continue;  // an option's value, whatever it is ("--" too)
    else if (w == "--")
      after_mark = true;
    else if (w.size() < 2 || w[0] != '-')
      unexpected.push_back(w);
  }
  if (after_mark) unexpected.insert(unexpected.end(), trailer.begin(), trailer.end());
  if (unexpected.empty()) return std::nullopt;
  return unexpected_words(unexpected);
}

}  // namespace fairway::cli
