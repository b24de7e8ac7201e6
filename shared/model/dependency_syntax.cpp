#include "shared/model/dependency_syntax.h"
#include "shared/base/try.h"

#include <charconv>
#include <string>

namespace fairway {
namespace {

Error bad(std::string_view text, std::string_view why) {
  return Error{ErrorCode::kInvalidArgument, "--dependency=" + std::string(text) + ": " + std::string(why)};
}

struct TypeName {
  std::string_view name;
  DependencyType type;
};
constexpr TypeName kTypes[] = {
    {"after", DependencyType::kAfter},         {"afterany", DependencyType::kAfterAny},
    {"afterok", DependencyType::kAfterOk},     {"afternotok", DependencyType::kAfterNotOk},
    {"singleton", DependencyType::kSingleton},
};

// `tasks` collects the clause's array tasks ("12_3"), as refs to clause `index`.
Result<DependencyClause> parse_clause(std::string_view all, std::string_view clause, std::size_t index,
                                      std::vector<DependencyTaskRef>& tasks) {
  if (clause.empty()) return std::unexpected(bad(all, "empty clause"));
  const auto colon = clause.find(':');
  const std::string_view name = clause.substr(0, colon);
  const TypeName* type = nullptr;
  for (const auto& t : kTypes) {
    if (t.name == name) type = &t;
  }
  if (type == nullptr) {
    if (name == "aftercorr" || name == "expand") {
      return std::unexpected(bad(all, std::string(name) + " is not supported yet (it needs job arrays)"));
    }
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos) {
      // Slurm's bare "--dependency=12" means afterany:12.
      if (colon != std::string_view::npos) {
        return std::unexpected(bad(all, "a bare job id takes no ':' list; write afterany:ID:ID"));
      }
      std::uint64_t id = 0;
      auto [p, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
      if (ec != std::errc() || id == 0) {
        return std::unexpected(bad(all, "bad job id \"" + std::string(name) + "\""));
      }
      return DependencyClause{DependencyType::kAfterAny, {JobId(id)}};
    }
    return std::unexpected(bad(all, "unknown dependency type \"" + std::string(name) +
                                        "\" (after, afterany, afterok, afternotok, singleton)"));
  }
  DependencyClause c{type->type, {}};
  if (type->type == DependencyType::kSingleton) {
    if (colon != std::string_view::npos) return std::unexpected(bad(all, "singleton takes no job ids"));
    return c;
  }
  if (colon == std::string_view::npos || colon + 1 == clause.size()) {
    return std::unexpected(bad(all, std::string(name) + ": no job ids"));
  }
  std::string_view rest = clause.substr(colon + 1);
  while (true) {
    const auto next = rest.find(':');
    const std::string_view id_text = rest.substr(0, next);
    if (id_text.find('+') != std::string_view::npos) {
      return std::unexpected(bad(all, "delays (\"" + std::string(id_text) + "\") are not supported yet"));
    }
    if (const auto underscore = id_text.find('_'); underscore != std::string_view::npos) {
      const std::string_view array_text = id_text.substr(0, underscore);
      const std::string_view task_text = id_text.substr(underscore + 1);
      std::uint64_t array = 0;
      std::int32_t task = -1;
      const auto [ap, aec] = std::from_chars(array_text.data(), array_text.data() + array_text.size(), array);
      const auto [tp, tec] = std::from_chars(task_text.data(), task_text.data() + task_text.size(), task);
      if (aec != std::errc() || ap != array_text.data() + array_text.size() || array == 0 ||
          tec != std::errc() || tp != task_text.data() + task_text.size() || task < 0 ||
          task > kMaxArrayIndex) {
        return std::unexpected(
            bad(all, "bad array task \"" + std::string(id_text) + "\" (ARRAY_INDEX, e.g. 12_3)"));
      }
      tasks.push_back({index, JobId(array), task});
      if (next == std::string_view::npos) break;
      rest = rest.substr(next + 1);
      continue;
    }
    std::uint64_t id = 0;
    auto [p, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
    if (id_text.empty() || ec != std::errc() || p != id_text.data() + id_text.size() || id == 0) {
      return std::unexpected(bad(all, "bad job id \"" + std::string(id_text) + "\""));
    }
    c.jobs.emplace_back(id);
    if (next == std::string_view::npos) break;
    rest = rest.substr(next + 1);
  }
  return c;
}

}  // namespace

Result<DependencyOption> parse_dependency_option(std::string_view text) {
  DependencyOption out;
  const bool has_and = text.find(',') != std::string_view::npos;
  const bool has_or = text.find('?') != std::string_view::npos;
  if (has_and && has_or) {
    return std::unexpected(bad(text, "',' (all of) and '?' (any of) cannot be mixed"));
  }
  out.any = has_or;
  const char sep = has_or ? '?' : ',';
  std::string_view rest = text;
  while (true) {
    const auto next = rest.find(sep);
    FAIRWAY_TRY_ASSIGN(clause, parse_clause(text, rest.substr(0, next), out.clauses.size(), out.tasks));
    out.clauses.push_back(std::move(clause));
    if (next == std::string_view::npos) break;
    rest = rest.substr(next + 1);
  }
  return out;
}

}  // namespace fairway
