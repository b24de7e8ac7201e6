// An LD_PRELOAD library that makes a process believe it is root: getuid() and geteuid()
// return 0. Issue 9's attack on the CLI; the tests assert the coordinator is not fooled.
#include <sys/types.h>

extern "C" uid_t getuid() {
  return 0;
}
extern "C" uid_t geteuid() {
  return 0;
}
