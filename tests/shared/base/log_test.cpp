#include "shared/base/log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fairway {
namespace {

std::vector<std::string> g_lines;

void capture(LogLevel, std::string_view, std::initializer_list<LogField>, const std::string& line) {
  g_lines.push_back(line);
}

TEST(Log, RendersOneParseableLinePerEvent) {
  EXPECT_EQ(render_log_line("job_started", {{"job", "12"}, {"node", "cn01"}}),
            "job_started job=12 node=cn01");
  EXPECT_EQ(render_log_line("submit_refused", {{"reason", "bad \"partition\" x=1"}}),
            "submit_refused reason=\"bad \\\"partition\\\" x=1\"");
  EXPECT_EQ(render_log_line("e", {{"empty", ""}}), "e empty=\"\"");
  EXPECT_EQ(render_log_line("e", {{"multi", "a\nb"}}), "e multi=\"a b\"");
}

TEST(Log, SinkAndLevelFilter) {
  g_lines.clear();
  set_log_sink(&capture);
  set_log_level(LogLevel::kWarning);
  log_event(LogLevel::kInfo, "quiet");
  log_event(LogLevel::kError, "loud", {{"job", "1"}});
  set_log_level(LogLevel::kInfo);
  set_log_sink(nullptr);
  ASSERT_EQ(g_lines.size(), 1u);
  EXPECT_EQ(g_lines[0], "loud job=1");
}

}  // namespace
}  // namespace fairway
