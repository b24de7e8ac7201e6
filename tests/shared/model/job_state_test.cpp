#include "shared/model/job_state.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fairway {
namespace {

using S = JobState;

const std::vector<S> kAll = {S::kPending,   S::kHeld,     S::kBlocked,    S::kRunning, S::kCompleting,
                             S::kCompleted, S::kFailed,   S::kCancelled,  S::kTimeout, S::kPreempted,
                             S::kRequeued,  S::kNodeFail, S::kOutOfMemory};

// The whole legal-move table, written out independently of the implementation.
const std::set<std::pair<S, S>> kLegal = {
    {S::kPending, S::kHeld},         {S::kPending, S::kBlocked},        {S::kPending, S::kRunning},
    {S::kPending, S::kCancelled},    {S::kHeld, S::kPending},           {S::kHeld, S::kBlocked},
    {S::kHeld, S::kCancelled},       {S::kBlocked, S::kPending},        {S::kBlocked, S::kHeld},
    {S::kBlocked, S::kCancelled},    {S::kRunning, S::kCompleting},     {S::kRunning, S::kCompleted},
    {S::kRunning, S::kFailed},       {S::kRunning, S::kCancelled},      {S::kRunning, S::kTimeout},
    {S::kRunning, S::kPreempted},    {S::kRunning, S::kRequeued},       {S::kRunning, S::kNodeFail},
    {S::kCompleting, S::kCompleted}, {S::kCompleting, S::kFailed},      {S::kCompleting, S::kCancelled},
    {S::kCompleting, S::kTimeout},   {S::kCompleting, S::kNodeFail},    {S::kRequeued, S::kPending},
    {S::kRunning, S::kOutOfMemory},  {S::kCompleting, S::kOutOfMemory}, {S::kRequeued, S::kHeld},
    {S::kRequeued, S::kCancelled},
};

TEST(JobState, TransitionMatrixMatchesTheStateMachine) {
  for (S from : kAll) {
    for (S to : kAll) {
      bool expected = kLegal.contains({from, to});
      EXPECT_EQ(is_legal_transition(from, to), expected) << to_string(from) << " -> " << to_string(to);
      EXPECT_EQ(check_transition(from, to).has_value(), expected)
          << to_string(from) << " -> " << to_string(to);
    }
  }
}

TEST(JobState, TypicalLifecyclesAreLegal) {
  std::vector<std::vector<S>> paths = {
      {S::kPending, S::kRunning, S::kCompleting, S::kCompleted},
      {S::kHeld, S::kPending, S::kRunning, S::kTimeout},
      {S::kPending, S::kBlocked, S::kPending, S::kRunning, S::kFailed},
      {S::kPending, S::kRunning, S::kRequeued, S::kPending, S::kRunning, S::kCompleted},
      {S::kPending, S::kRunning, S::kRequeued, S::kHeld, S::kCancelled},
  };
  for (const auto& path : paths) {
    for (std::size_t i = 1; i < path.size(); ++i) {
      EXPECT_TRUE(is_legal_transition(path[i - 1], path[i]))
          << to_string(path[i - 1]) << " -> " << to_string(path[i]);
    }
  }
}

TEST(JobState, IllegalMovesAreRejectedWithBothStatesNamed) {
  auto s = check_transition(S::kCompleted, S::kRunning);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(s.error().message.find("completed"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("running"), std::string::npos) << s.error().message;

  // A held job must be released before it can start; a waiting job cannot time out.
  EXPECT_FALSE(is_legal_transition(S::kHeld, S::kRunning));
  EXPECT_FALSE(is_legal_transition(S::kBlocked, S::kRunning));
  EXPECT_FALSE(is_legal_transition(S::kPending, S::kTimeout));
  EXPECT_FALSE(is_legal_transition(S::kRequeued, S::kRunning));
  for (S st : kAll) EXPECT_FALSE(is_legal_transition(st, st)) << to_string(st);
}

TEST(JobState, TerminalStatesNeverMove) {
  const std::set<S> terminal = {S::kCompleted, S::kFailed,   S::kCancelled,  S::kTimeout,
                                S::kPreempted, S::kNodeFail, S::kOutOfMemory};
  for (S st : kAll) {
    EXPECT_EQ(is_terminal(st), terminal.contains(st)) << to_string(st);
    if (!is_terminal(st)) continue;
    for (S to : kAll) EXPECT_FALSE(is_legal_transition(st, to)) << to_string(st);
  }
}

TEST(JobState, WaitingStates) {
  for (S st : kAll) {
    bool waiting = st == S::kPending || st == S::kHeld || st == S::kBlocked;
    EXPECT_EQ(is_waiting(st), waiting) << to_string(st);
  }
}

TEST(JobState, StringRoundTrip) {
  std::set<std::string_view> names;
  for (S st : kAll) {
    std::string_view name = to_string(st);
    EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
    auto back = job_state_from_string(name);
    ASSERT_TRUE(back.has_value()) << name;
    EXPECT_EQ(*back, st);
  }
  EXPECT_EQ(to_string(S::kPending), "pending");
  EXPECT_EQ(to_string(S::kCancelled), "cancelled");
  EXPECT_EQ(to_string(S::kNodeFail), "node_fail");
  EXPECT_EQ(to_string(S::kOutOfMemory), "oom");
  EXPECT_EQ(to_string(S::kCompleting), "completing");
}

TEST(JobState, UnknownStringsAreRejected) {
  for (const char* text : {"", "PENDING", "Running", "canceled", "node-fail", "pending "}) {
    EXPECT_FALSE(job_state_from_string(text).has_value()) << "'" << text << "'";
  }
}

}  // namespace
}  // namespace fairway
