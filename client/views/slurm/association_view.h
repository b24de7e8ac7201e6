// Accounts and their users as sacctmgr lists them (`fairway shares --list`, and the sacctmgr
// front-end): users, accounts or associations, with sacctmgr's field names, widths and its
// -P / -n forms. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// kUsers: each user once (with their first account); kUserAssociations: each user and
// account pair (sacctmgr -s list user); kAccounts: the accounts; kAssociations: both.
enum class AssociationList : std::uint8_t { kUsers, kUserAssociations, kAccounts, kAssociations };

struct AssociationLayout {
  AssociationList list = AssociationList::kAssociations;
  std::string format;     // "Account,User%20,Share"; empty: the list's own default
  bool parsable = false;  // -P: '|' between fields, nothing padded
  bool header = true;
  // sacctmgr list assoc user=X: the user's associations, not their accounts' own rows.
  bool users_only = false;
};

// "users", "accounts", "associations" (singular too, as sacctmgr takes them), and
// "user-associations".
Result<AssociationList> parse_association_list(const std::string& word);

// Errors name an unknown field.
Result<std::string> render_associations(const wire::SharesReply& reply, const AssociationLayout& layout);

}  // namespace fairway::cli
