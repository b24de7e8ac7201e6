// [[reservations]] (maintenance windows and project reservations) and the partition keys
// killable and killable_cutoff: what parses, what each bad value is told.
#include <gtest/gtest.h>

#include <string>

#include "config_test_util.h"
#include "shared/config/config.h"

namespace fairway {
namespace {

using config_test::kNode;
using config_test::parse_error;
using config_test::parse_ok;

std::string with_reservation(const std::string& body) {
  return std::string(kNode) + "[[reservations]]\n" + body;
}

constexpr const char* kValid =
    "name = \"outage\"\nstart = 1000\nduration = \"8h\"\nnodes = \"cn[1-2]\"\nflags = [\"maintenance\"]\n";

TEST(ConfigReservations, EpochStartAndHostList) {
  Config c = parse_ok(with_reservation(kValid));
  ASSERT_EQ(c.reservations.size(), 1u);
  const ReservationConfig& r = c.reservations[0];
  EXPECT_EQ(r.name, "outage");
  EXPECT_EQ(r.start, Time::from_seconds(1000));
  EXPECT_EQ(r.duration, Duration::hours(8));
  EXPECT_EQ(r.end(), Time::from_seconds(1000 + 8 * 3600));
  EXPECT_FALSE(r.all_nodes);
  EXPECT_EQ(r.nodes, (std::vector<std::string>{"cn1", "cn2"}));
  EXPECT_TRUE(r.maintenance);
  EXPECT_TRUE(parse_ok(kNode).reservations.empty());
}

TEST(ConfigReservations, IsoStringsAndTomlDateTimesAreUtc) {
  // 2017-11-28T13:00:00Z = 1511874000.
  Config s =
      parse_ok(with_reservation("name = \"a\"\nstart = \"2017-11-28T13:00:00Z\"\nduration = 60\nnodes = "
                                "\"ALL\"\nflags = [\"maintenance\"]\n"));
  EXPECT_EQ(s.reservations[0].start, Time::from_seconds(1511874000));
  EXPECT_TRUE(s.reservations[0].all_nodes);
  EXPECT_TRUE(s.reservations[0].nodes.empty());
  Config d =
      parse_ok(with_reservation("name = \"a\"\nstart = 2017-11-28T15:00:00+02:00\nduration = 60\nnodes = "
                                "\"ALL\"\nflags = [\"maintenance\"]\n"));
  EXPECT_EQ(d.reservations[0].start, Time::from_seconds(1511874000));
}

TEST(ConfigReservations, BadValuesNameKeyAndValue) {
  EXPECT_CONTAINS(parse_error(with_reservation("name = \"a\"\nstart = \"2017-11-28 13:00\"\nduration = "
                                               "60\nnodes = \"ALL\"\nflags = [\"maintenance\"]\n")),
                  "cluster.toml: reservations[0].start: invalid time '2017-11-28 13:00'");
  EXPECT_CONTAINS(parse_error(with_reservation("name = \"a\"\nstart = \"2017-02-30T00:00:00Z\"\nduration = "
                                               "60\nnodes = \"ALL\"\nflags = [\"maintenance\"]\n")),
                  "reservations[0].start: invalid time '2017-02-30T00:00:00Z'");
  EXPECT_CONTAINS(
      parse_error(with_reservation(
          "name = \"a\"\nstart = -5\nduration = 60\nnodes = \"ALL\"\nflags = [\"maintenance\"]\n")),
      "reservations[0].start: must be >= 0 epoch seconds, got -5");
  EXPECT_CONTAINS(parse_error(with_reservation("name = \"a\"\nstart = 2017-11-28T13:00:00\nduration = "
                                               "60\nnodes = \"ALL\"\nflags = [\"maintenance\"]\n")),
                  "reservations[0].start: a TOML date-time needs an offset");
  EXPECT_CONTAINS(parse_error(with_reservation(
                      "name = \"a\"\nstart = 0\nduration = 0\nnodes = \"ALL\"\nflags = [\"maintenance\"]\n")),
                  "reservations[0].duration: must be > 0, got 0");
  EXPECT_CONTAINS(
      parse_error(with_reservation(
          "name = \"a\"\nstart = 0\nduration = 60\nnodes = \"cn[4-5]\"\nflags = [\"maintenance\"]\n")),
      "reservations[0].nodes: unknown node 'cn5' in 'cn[4-5]'");
  EXPECT_CONTAINS(
      parse_error(with_reservation(
          "name = \"a\"\nstart = 0\nduration = 60\nnodes = \"ALL\"\nflags = [\"ignore_jobs\"]\n")),
      "reservations[0].flags: unsupported flag 'ignore_jobs'");
  EXPECT_CONTAINS(
      parse_error(with_reservation("name = \"a\"\nstart = 0\nduration = 60\nnodes = \"ALL\"\nflags = []\n")),
      "reservation 'a' is neither a maintenance (flags = [\"maintenance\"]) nor a project's");
  EXPECT_CONTAINS(
      parse_error(with_reservation("name = \"a\"\nstart = 0\nduration = 60\nflags = [\"maintenance\"]\n")),
      "reservations[0].nodes");
  EXPECT_CONTAINS(parse_error(with_reservation(std::string(kValid) + "users = \"x\"\n")), "reservations[0]");
  EXPECT_CONTAINS(parse_error(with_reservation(std::string(kValid) + "[[reservations]]\n" + kValid)),
                  "reservations[1].name: duplicate reservation 'outage'");
}

constexpr const char* kProject =
    "name = \"climate-run\"\nstart = 1000\nduration = \"12h\"\nnodes = \"cn[1-2]\"\naccount = \"climate\"\n";

TEST(ConfigReservations, AProjectReservationNamesItsAccountUsersAndPatience) {
  Config c = parse_ok(
      with_reservation(std::string(kProject) +
                       "users = [\"alice\", \"bob\"]\ncancel_below_use = 0.5\ncancel_after = \"30:00\"\n"));
  const ReservationConfig& r = c.reservations[0];
  EXPECT_TRUE(r.project());
  EXPECT_FALSE(r.maintenance);
  EXPECT_EQ(r.account, "climate");
  EXPECT_EQ(r.users, (std::vector<std::string>{"alice", "bob"}));
  EXPECT_DOUBLE_EQ(r.cancel_below_use, 0.5);
  EXPECT_EQ(r.cancel_after, Duration::minutes(30));
  // Defaults: every user of the account, never cancelled for low use.
  Config d = parse_ok(with_reservation(kProject));
  EXPECT_TRUE(d.reservations[0].users.empty());
  EXPECT_DOUBLE_EQ(d.reservations[0].cancel_below_use, 0.0);
}

TEST(ConfigReservations, ProjectReservationMistakesAreNamed) {
  EXPECT_CONTAINS(parse_error(with_reservation(std::string(kProject) + "flags = [\"maintenance\"]\n")),
                  "reservations[0].account: set on maintenance reservation 'climate-run'");
  EXPECT_CONTAINS(parse_error(with_reservation(std::string(kProject) + "cancel_below_use = 1.5\n")),
                  "reservations[0].cancel_below_use: must be a fraction from 0 to 1");
  EXPECT_CONTAINS(parse_error(with_reservation(std::string(kProject) + "cancel_after = 0\n")),
                  "reservations[0].cancel_after: must be > 0");
  EXPECT_CONTAINS(parse_error(with_reservation(std::string(kValid) + "users = [\"alice\"]\n")),
                  "reservations[0].users: is for project reservations (set account)");
  EXPECT_CONTAINS(parse_error(with_reservation(
                      "name = \"p\"\nstart = 0\nduration = 60\nnodes = \"ALL\"\naccount = \"a b\"\n")),
                  "reservations[0].account: invalid account name 'a b'");
  EXPECT_CONTAINS(
      parse_error(std::string(kNode) + "[[accounts]]\nname = \"physics\"\n[[reservations]]\n" + kProject),
      "reservations[0].account: unknown account 'climate' (not in [[accounts]])");
}

TEST(ConfigPartitionMemory, DefaultMemPerCpuIsReadAndRangeChecked) {
  Config c =
      parse_ok(std::string(kNode) + "[[partitions]]\nname = \"batch\"\ndefault_mem_per_cpu_mb = 2048\n");
  EXPECT_EQ(c.partitions[0].default_mem_per_cpu_mb, 2048);
  EXPECT_EQ(
      parse_ok(std::string(kNode) + "[[partitions]]\nname = \"b\"\n").partitions[0].default_mem_per_cpu_mb,
      0);
  EXPECT_CONTAINS(
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"b\"\ndefault_mem_per_cpu_mb = -1\n"),
      "partitions[0].default_mem_per_cpu_mb: must be >= 0, got -1");
}

TEST(ConfigReservations, KillablePartitionKeys) {
  Config c = parse_ok(std::string(kNode) +
                      "[[partitions]]\nname = \"batch\"\n[[partitions]]\nname = \"killable\"\n"
                      "killable = true\nkillable_cutoff = \"1h\"\n");
  EXPECT_FALSE(c.partitions[0].killable);
  EXPECT_TRUE(c.partitions[1].killable);
  EXPECT_EQ(c.partitions[1].killable_cutoff, Duration::hours(1));
  EXPECT_CONTAINS(
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nkillable_cutoff = \"1h\"\n"),
      "partitions[0].killable_cutoff: set on partition 'p', which is not killable");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nkillable = \"yes\"\n"),
                  "partitions[0].killable");
  EXPECT_CONTAINS(parse_error(std::string(kNode) +
                              "[[partitions]]\nname = \"p\"\nkillable = true\nkillable_cutoff = -1\n"),
                  "partitions[0].killable_cutoff: must be >= 0 seconds, got -1");
}

}  // namespace
}  // namespace fairway
