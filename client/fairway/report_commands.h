// `fairway diag` (sdiag), `fairway show partition` (scontrol show partition) and `fairway
// shares` (sshare): the coordinator's reports as text or JSON. Pure apart from the
// transport and streams they are given.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "client/fairway/commands.h"

namespace fairway::cli {

// `sdiag`: sdiag's layout (sdiag_view.h) instead of Fairway's own.
int run_diag(bool json, bool sdiag, const Transport& transport, const Output& io);
std::string render_diag(const wire::MetricsReply& reply);
std::string metrics_json(const wire::MetricsReply& reply);

// show config: the coordinator's settings, "key = value"; `scontrol`: Slurm's layout.
int run_show_config(bool scontrol, const Transport& transport, const Output& io);
// `scontrol`: scontrol show partition's Key=Value layout and its "Partition X not found".
int run_show_partition(const std::vector<std::string>& names, bool json, bool scontrol,
                       const Transport& transport, const Output& io);
std::string render_partition_detail(const wire::PartitionView& p);
std::string partitions_json(const wire::PartitionQueryReply& reply);

struct SharesOptions {
  std::string user, account;
  bool json = false;
  // --list users|accounts|associations: sacctmgr's lists (association_view.h) instead of
  // sshare's table, with its --format fields, -P and --noheader.
  std::string list, format;
  bool parsable = false;
  bool noheader = false;
  // sshare's own table (slurm_report_views.h): --sshare; without --all-users, the caller's
  // lines only (or -u's); -P and -p (trailing_bar) and --noheader with it.
  bool sshare = false;
  bool all_users = false;
  bool trailing_bar = false;
};
int run_shares(const SharesOptions& o, const Transport& transport, const Output& io);
std::string render_shares(const wire::SharesReply& reply);
std::string shares_json(const wire::SharesReply& reply);

}  // namespace fairway::cli
