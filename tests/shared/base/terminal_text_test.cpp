// escape_control (issue 33 item 7): the bytes that move a terminal's cursor or start an
// escape sequence are shown, not obeyed; all other text is kept as it is.
#include "shared/base/terminal_text.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

TEST(TerminalText, ANewlineCannotForgeASecondLine) {
  const std::string forged = escape_control("x\nroot      1 normal R");
  EXPECT_EQ(forged, "x\\nroot      1 normal R");
  EXPECT_EQ(forged.find('\n'), std::string::npos);
}

TEST(TerminalText, EscapeSequencesAndOtherControlsAreShownAsEscapes) {
  EXPECT_EQ(escape_control("\x1b[2J\x1b]0;owned\a"), "\\x1b[2J\\x1b]0;owned\\x07");
  EXPECT_EQ(escape_control("a\rb\tc\x7f" + std::string(1, '\0')), "a\\rb\\tc\\x7f\\x00");
  // C1 controls as UTF-8: U+009B is CSI on terminals that honour 8-bit controls.
  EXPECT_EQ(escape_control("a\xc2\x9b"
                           "31mred"),
            "a\\u009b31mred");
}

TEST(TerminalText, PrintableTextIncludingUtf8AndBackslashesIsUntouched) {
  for (const std::string s : {"", "plain job", "résumé ✓ 東京", "C:\\path\\n", "\xc2\xa0nbsp"}) {
    EXPECT_FALSE(has_control(s)) << s;
    EXPECT_EQ(escape_control(s), s);
  }
  EXPECT_TRUE(has_control("a\nb"));
}

}  // namespace
}  // namespace fairway
