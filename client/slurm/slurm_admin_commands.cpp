#include "client/slurm/slurm_admin_commands.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "client/views/text_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

// The words after one of fairway's subcommands as its parser (CLI11) read them: --json, the
// positional words, --version, and any other option, which it refused ("-5" and "-" are
// words). After "--" every word is positional when none came before; otherwise the words
// went back to fairway's own options, which took none of them but --version.
struct SubcommandWords {
  std::vector<std::string> positional;
  std::vector<std::string> unexpected;
  bool json = false;
  bool version = false;
};

SubcommandWords read_subcommand_words(const std::vector<std::string>& words) {
  SubcommandWords r;
  enum class After : std::uint8_t { kNone, kWords, kFairway } after = After::kNone;
  for (const std::string& w : words) {
    if (after == After::kWords) {
      r.positional.push_back(w);
    } else if (after == After::kFairway) {
      if (w == "--version")
        r.version = true;
      else
        r.unexpected.push_back(w);
    } else if (w == "--") {
      after = r.positional.empty() ? After::kWords : After::kFairway;
    } else if (w == "--json" || w.starts_with("--json=")) {
      r.json = true;
    } else if (w == "--version") {
      r.version = true;
    } else if (w.size() >= 2 && w[0] == '-' && !std::isdigit(static_cast<unsigned char>(w[1]))) {
      r.unexpected.push_back(w);
    } else {
      r.positional.push_back(w);
    }
  }
  return r;
}

// fairway's parser's refusal of these words, in its words and order: --version first, then
// a missing `required` positional ("ids is required"), then the options it does not take.
void refuse_as_fairway(const SubcommandWords& r, const char* required, SlurmTranslation& t) {
  if (r.version) {
    t.fairway_version = true;
  } else if (required != nullptr && r.positional.empty()) {
    t.usage_error = std::string(required) + " is required";
  } else if (!r.unexpected.empty()) {
    std::string listed;
    for (auto w = r.unexpected.rbegin(); w != r.unexpected.rend(); ++w)
      listed += (listed.empty() ? "" : " ") + *w;
    t.usage_error = std::string(r.unexpected.size() == 1 ? "The following argument was not expected: "
                                                         : "The following arguments were not expected: ") +
                    listed;
  }
}

}  // namespace

// scontrol's words are case-insensitive: `show job 42`, `SHOW JOB 42`, `update JobId=42 ...`.
Result<SlurmTranslation> translate_scontrol(const std::vector<std::string>& args,
                                            const SlurmInvocation& inv) {
  if (std::any_of(args.begin(), args.end(),
                  [](const std::string& a) { return a == "--help" || a == "-h"; }) ||
      (!args.empty() && to_lower(args[0]) == "help")) {
    return SlurmTranslation{
        {},
        "Usage: scontrol [-d] COMMAND\n"
        "Slurm's scontrol on Fairway (docs/slurm-compat.md). Commands:\n"
        "  show job [ID] | node [NAME] | partition [NAME] | reservation [NAME] | config\n"
        "  show hostnames [LIST] | hostlist NAMES | hostlistsorted NAMES\n"
        "  hold | uhold | release | requeue | requeuehold ID...\n"
        "  update JobId=ID KEY=VALUE... | update NodeName=NODE State=DRAIN|RESUME Reason=TEXT\n"
        "  version\n"};
  }
  std::vector<std::string> words;
  for (const std::string& a : args) {
    if (a == "-d" || a == "--details" || a == "-dd" || a == "-o" || a == "--oneliner" || a == "-Q" ||
        a == "--quiet") {
      continue;  // detail and layout switches: fairway show's one layout
    }
    words.push_back(a);
  }
  if (words.empty()) return invalid_argument("no command given (show, hold, release, requeue, update)");
  const std::string verb = to_lower(words[0]);
  const auto rest = [&](std::size_t from) {
    return std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(std::min(from, words.size())),
                                    words.end());
  };
  if (verb == "show") {
    if (words.size() < 2)
      return invalid_argument("show what? (job, node, partition, reservation, hostnames, hostlist)");
    std::string what = to_lower(words[1]);
    if (what == "jobs" || what == "jobid") what = "job";
    if (what == "nodes") what = "node";
    if (what == "partitions") what = "partition";
    if (what == "reservations") what = "reservation";
    if (what == "steps") what = "step";
    if (what == "step") {
      // [JOB[.STEP]]: the running steps, of one job, or one step (".batch" for the script).
      SlurmQueueCall call;
      call.options.steps = true;
      call.options.scontrol_steps = true;
      if (words.size() > 2) call.options.step_id = words[2];
      return SlurmTranslation{{}, std::nullopt, call};
    }
    if (what == "hostnames") {
      std::string list = words.size() > 2 ? words[2] : std::string();
      if (list.empty()) {
        for (const auto& [k, v] : inv.env) {
          if (k == "SLURM_JOB_NODELIST") list = v;
        }
      }
      if (list.empty())
        return invalid_argument("show hostnames: no host list given and SLURM_JOB_NODELIST is not set");
      auto hosts = expand_hostlist(list);
      if (!hosts) return invalid_argument("show hostnames: " + hosts.error().message);
      std::string out;
      for (const std::string& h : *hosts) out += h + "\n";
      return SlurmTranslation{{}, out};
    }
    if (what == "hostlist" || what == "hostlistsorted") {
      if (words.size() < 3) return invalid_argument("show hostlist: no host names given");
      std::vector<std::string> hosts;
      for (std::size_t i = 2; i < words.size(); ++i) {
        auto expanded = expand_hostlist(words[i]);
        if (!expanded) return invalid_argument("show hostlist: " + expanded.error().message);
        hosts.insert(hosts.end(), expanded->begin(), expanded->end());
      }
      if (what == "hostlistsorted") std::sort(hosts.begin(), hosts.end());
      return SlurmTranslation{{}, compress_hostlist(hosts) + "\n"};
    }
    if (what == "job" || what == "node" || what == "partition") {
      SlurmShowCall call;
      call.what = what == "job"    ? SlurmShowCall::What::kJob
                  : what == "node" ? SlurmShowCall::What::kNode
                                   : SlurmShowCall::What::kPartition;
      // One job or node, any number of partitions, and fairway show's --json; the rest is
      // refused in the words of fairway's parser, which these words once went through.
      std::vector<std::string> unexpected;
      for (const std::string& w : rest(2)) {
        if (w == "--json")
          call.json = true;
        else if (w == "--scontrol")
          continue;
        else if (w.starts_with("-") || (call.what != SlurmShowCall::What::kPartition && !call.names.empty()))
          unexpected.push_back(w);
        else
          call.names.push_back(w);
      }
      SlurmTranslation t{{}, std::nullopt, call};
      if (!unexpected.empty()) {
        std::string listed;
        for (auto w = unexpected.rbegin(); w != unexpected.rend(); ++w)
          listed += (listed.empty() ? "" : " ") + *w;
        t.usage_error = std::string(unexpected.size() == 1 ? "The following argument was not expected: "
                                                           : "The following arguments were not expected: ") +
                        listed;
      }
      return t;
    }
    if (what == "reservation") {
      const SubcommandWords r = read_subcommand_words(rest(2));
      SlurmShowCall call{SlurmShowCall::What::kReservation, r.positional, r.json};
      SlurmTranslation t{{}, std::nullopt, call};
      refuse_as_fairway(r, nullptr, t);
      return t;
    }
    // Words after `show config` are ignored, as they always were.
    if (what == "config")
      return SlurmTranslation{{}, std::nullopt, SlurmShowCall{SlurmShowCall::What::kConfig, {}, false}};
    return invalid_argument("show " + words[1] + " is not supported");
  }
  if (verb == "hold" || verb == "uhold" || verb == "release" || verb == "requeue" || verb == "requeuehold") {
    SlurmControlCall call;
    call.action = verb == "hold" || verb == "uhold" ? wire::JobAction::kHold
                  : verb == "release"               ? wire::JobAction::kRelease
                                                    : wire::JobAction::kRequeue;
    const SubcommandWords r = read_subcommand_words(rest(1));
    call.options.ids = r.positional;
    call.options.json = r.json;
    SlurmTranslation t{{}, std::nullopt, call};
    refuse_as_fairway(r, "ids", t);
    return t;
  }
  if (verb == "update") {
    // update JobId=42 TimeLimit=1:00:00 ... | update NodeName=cn01 State=DRAIN Reason="x"
    std::optional<std::string> job, node, state, reason;
    std::vector<std::string> keys;
    for (const std::string& w : rest(1)) {
      const std::size_t eq = w.find('=');
      const std::string key = to_lower(w.substr(0, eq));
      const std::string value = eq == std::string::npos ? std::string() : w.substr(eq + 1);
      if (key == "jobid" || key == "job")
        job = value;
      else if (key == "nodename" || key == "node")
        node = value;
      else if (key == "state")
        state = to_lower(value);
      else if (key == "reason")
        reason = value;
      else
        keys.push_back(w);
    }
    if (job) {
      if (node || state) return invalid_argument("update names both a job and a node");
      // fairway update's words: job ID KEY=VALUE... (the id read as one of them).
      std::vector<std::string> all = {"job", *job};
      all.insert(all.end(), keys.begin(), keys.end());
      const SubcommandWords r = read_subcommand_words(all);
      SlurmTranslation t{{}, std::nullopt, SlurmUpdateCall{r.positional, r.json}};
      refuse_as_fairway(r, "words", t);
      return t;
    }
    if (node) {
      if (!keys.empty())
        return invalid_argument("update node: only State= and Reason= are supported, not " + keys[0]);
      // The node name read as fairway drain's or resume's one word (the reason is --reason's
      // value, whatever it is).
      const auto node_call = [&](wire::NodeAction action, std::string why) {
        const SubcommandWords r = read_subcommand_words({*node});
        SlurmTranslation t{{}, std::nullopt, SlurmNodeControlCall{action, r.positional, std::move(why)}};
        // drain -- --reason R: the reason's option and its value were read as node names.
        if (action == wire::NodeAction::kDrain && *node == "--")
          t.usage_error = "--reason is required";
        else
          refuse_as_fairway(r, "nodes", t);
        return t;
      };
      if (state == "drain" || state == "down") {
        if (!reason) return invalid_argument("update node: State=" + *state + " needs a Reason=");
        return node_call(wire::NodeAction::kDrain, *reason);
      }
      if (state == "resume" || state == "idle" || state == "undrain")
        return node_call(wire::NodeAction::kResume, {});
      return invalid_argument("update node: State=" + state.value_or("") +
                              " is not supported (DRAIN, RESUME)");
    }
    return invalid_argument("update needs JobId= or NodeName=");
  }
  return invalid_argument("" + words[0] + " is not supported (show, hold, release, requeue, update)");
}

// sacctmgr's read side: `[-n] [-P] [-s] list|show user|account|association [NAME] [user=X]
// [account=X] [format=...]`. Accounts and users live in the config: nothing is changed.
Result<SlurmTranslation> translate_sacctmgr(const std::vector<std::string>& args) {
  if (std::any_of(args.begin(), args.end(),
                  [](const std::string& a) { return a == "--help" || a == "help"; })) {
    return SlurmTranslation{
        {},
        "Usage: sacctmgr [-n] [-P] [-s] list|show user|account|association [NAME] [user=U]\n"
        "                [account=A] [format=Account,User,Share,DefaultAccount,Admin]\n"
        "Slurm's sacctmgr on Fairway, read only: accounts and users are set in the\n"
        "coordinator's config ([[accounts]]); docs/slurm-compat.md.\n"};
  }
  bool noheader = false, parsable = false, with_assoc = false;
  std::vector<std::string> words;
  for (const std::string& a : args) {
    if (a == "-n" || a == "--noheader")
      noheader = true;
    else if (a == "-P" || a == "--parsable2")
      parsable = true;
    else if (a == "-s" || a == "--associations")
      with_assoc = true;
    else if (a == "-i" || a == "--immediate" || a == "-Q" || a == "--quiet")
      continue;
    else if (a.starts_with("-")) {
      // Bundled flags (-nP, -snP).
      for (char c : a.substr(1)) {
        if (c == 'n')
          noheader = true;
        else if (c == 'P')
          parsable = true;
        else if (c == 's')
          with_assoc = true;
        else
          return invalid_argument("option -" + std::string(1, c) + " is not supported");
      }
    } else {
      words.push_back(a);
    }
  }
  if (words.size() < 2 || (to_lower(words[0]) != "list" && to_lower(words[0]) != "show")) {
    return invalid_argument(
        "only list and show are supported: accounts and users are set in the coordinator's config");
  }
  std::string what = to_lower(words[1]);
  if (with_assoc && (what == "user" || what == "users")) what = "user-associations";
  SlurmSharesCall call;
  SharesOptions& o = call.options;
  o.list = what;
  int users = 0, accounts = 0, formats = 0;
  const bool of_accounts = to_lower(words[1]).starts_with("acc");
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string& w = words[i];
    const std::size_t eq = w.find('=');
    const std::string key = to_lower(w.substr(0, eq));
    const std::string value = eq == std::string::npos ? std::string() : w.substr(eq + 1);
    // A bare name: the user or account listed (name= too).
    const bool names_account = of_accounts && (eq == std::string::npos || key.starts_with("name"));
    if (eq == std::string::npos || key == "user" || key == "users" || key == "name" || key == "names") {
      if (names_account)
        o.account = eq == std::string::npos ? w : value, ++accounts;
      else
        o.user = eq == std::string::npos ? w : value, ++users;
    } else if (key == "account" || key == "accounts") {
      o.account = value, ++accounts;
    } else if (key == "format") {
      o.format = value, ++formats;
    } else {
      return invalid_argument("condition \"" + w + "\" is not supported (user=, account=, format=)");
    }
  }
  o.parsable = parsable;
  o.noheader = noheader;
  SlurmTranslation t{{}, std::nullopt, call};
  // What fairway shares' parser refused when these went through it: one field given twice.
  if (users > 1)
    t.usage_error = "--user: At Most 1 required but received " + std::to_string(users);
  else if (accounts > 1)
    t.usage_error = "--account: At Most 1 required but received " + std::to_string(accounts);
  else if (formats > 1)
    t.usage_error = "--format: At Most 1 required but received " + std::to_string(formats);
  return t;
}

}  // namespace fairway::cli
