#include "client/views/slurm/association_view.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "client/views/text_format.h"
#include "shared/base/try.h"

namespace fairway::cli {
namespace {

struct Column {
  std::string field;  // canonical: Account, User, Share, DefaultAccount, Admin
  std::string title;
  int width = 10;  // sacctmgr's default width; values are right-justified in it
};

Result<std::vector<Column>> parse_columns(const std::string& format) {
  std::vector<Column> out;
  for (std::string word : comma_words(format)) {
    int width = 10;
    const bool sized = word.find('%') != std::string::npos;
    if (const auto pct = word.find('%'); pct != std::string::npos) {
      const std::string digits = word.substr(pct + 1);
      const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), width);
      if (ec != std::errc() || p != digits.data() + digits.size() || width < 1 || width > 1000) {
        return invalid_argument("format: bad width in \"" + word + "\"");
      }
      word = word.substr(0, pct);
    }
    const std::string key = to_lower(word);
    if (key == "account" || key == "acct") {
      out.push_back({"Account", "Account", width});
    } else if (key == "user") {
      out.push_back({"User", "User", width});
    } else if (key == "share" || key == "fairshare") {
      out.push_back({"Share", "Share", width});
    } else if (key == "defaultaccount" || key == "defacct" || key == "def acct") {
      out.push_back({"DefaultAccount", "Def Acct", width});
    } else if (key == "admin" || key == "adminlevel") {
      out.push_back({"Admin", "Admin", sized ? width : 9});
    } else {
      return invalid_argument("format: unknown field \"" + word +
                              "\" (Account, User, Share, DefaultAccount, Admin)");
    }
  }
  return out;
}

}  // namespace

Result<AssociationList> parse_association_list(const std::string& word) {
  const std::string w = to_lower(word);
  if (w == "user" || w == "users") return AssociationList::kUsers;
  if (w == "account" || w == "accounts") return AssociationList::kAccounts;
  if (w == "user-associations") return AssociationList::kUserAssociations;
  if (w == "association" || w == "associations" || w == "assoc") return AssociationList::kAssociations;
  return invalid_argument("cannot list \"" + word + "\" (users, accounts, associations)");
}

Result<std::string> render_associations(const wire::SharesReply& reply, const AssociationLayout& layout) {
  std::string format = layout.format;
  if (format.empty()) {
    format = layout.list == AssociationList::kUsers      ? "User,DefaultAccount,Admin"
             : layout.list == AssociationList::kAccounts ? "Account"
                                                         : "Account,User,Share";
    if (layout.list == AssociationList::kUserAssociations) format = "User,Account,Share";
  }
  FAIRWAY_TRY_ASSIGN(columns, parse_columns(format));
  // A user's first account is the one sacctmgr would call default here.
  std::vector<const wire::ShareView*> rows;
  std::set<std::string> users_seen;
  for (const auto& r : reply.rows) {
    const bool user_row = !r.user.empty();
    if (layout.list == AssociationList::kAccounts && user_row) continue;
    if ((layout.list == AssociationList::kUsers || layout.list == AssociationList::kUserAssociations ||
         layout.users_only) &&
        !user_row) {
      continue;
    }
    rows.push_back(&r);
  }
  const auto value = [&](const wire::ShareView& r, const std::string& field) -> std::string {
    if (field == "Account") return r.account;
    if (field == "User") return r.user;
    if (field == "Share") return format_number(r.raw_shares);
    // Slurm's admin level: root administers; admin_group members are not known here.
    if (field == "Admin") return r.user == "root" ? "Administrator" : "None";
    for (const auto& other : reply.rows) {
      if (other.user == r.user && !r.user.empty()) return other.account;
    }
    return "";
  };
  const auto fit = [&](std::string text, const Column& c, bool is_title = false) {
    if (layout.parsable) return text;
    const auto w = static_cast<std::size_t>(c.width);
    // A cut value ends in '+'; a cut title does not (format=account%5: "Accou").
    if (text.size() > w) return is_title ? text.substr(0, w) : text.substr(0, w - 1) + "+";
    return std::string(w - text.size(), ' ') + text;
  };
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    // sacctmgr ends every padded field with a blank, the last one too.
    for (const std::string& cell : cells) out += cell + (layout.parsable ? '|' : ' ');
    if (layout.parsable && !out.empty()) out.pop_back();
    out += '\n';
  };
  if (layout.header) {
    std::vector<std::string> titles, dashes;
    for (const Column& c : columns) {
      titles.push_back(fit(c.title, c, true));
      dashes.push_back(std::string(static_cast<std::size_t>(c.width), '-'));
    }
    line(titles);
    if (!layout.parsable) line(dashes);
  }
  for (const wire::ShareView* r : rows) {
    if (layout.list == AssociationList::kUsers && !users_seen.insert(r->user).second) continue;
    std::vector<std::string> cells;
    for (const Column& c : columns) cells.push_back(fit(value(*r, c.field), c));
    line(cells);
  }
  return out;
}

}  // namespace fairway::cli
