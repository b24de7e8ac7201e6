// Makes sure descriptors 0, 1 and 2 are open (on /dev/null when the caller closed them),
// so that no socket or file a program opens later lands on them and is taken for stdio.
#pragma once

namespace fairway {

// Opens /dev/null on each of 0..2 that is closed. Call first in main, before any other open.
void keep_standard_descriptors();

}  // namespace fairway
