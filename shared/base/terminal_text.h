// Text from other users made safe for a terminal: control characters shown as escapes, so
// a job name cannot forge a line of `squeue` or send escape sequences to an admin's tty.
#pragma once

#include <string>
#include <string_view>

namespace fairway {

// C0 controls and DEL become \n, \r, \t or \xHH; the C1 controls as UTF-8 (U+0080 to
// U+009F, which some terminals obey like ESC [) become \u0080 to \u009f. Everything else,
// backslashes and other UTF-8 included, is kept byte for byte.
std::string escape_control(std::string_view text);

// True if escape_control would change `text`.
bool has_control(std::string_view text);

}  // namespace fairway
