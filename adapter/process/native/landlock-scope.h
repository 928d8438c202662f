/*
 * Landlock's scope for abstract Unix sockets (Linux >= 6.12, ABI 6), for posix-spawn.c's child
 * before it execs bwrap: nothing inside can then connect to an abstract socket made outside, the
 * X server's (@/tmp/.X11-unix/X0, Xwayland's too) among them. A private network namespace hides
 * those already; a sandbox sharing the network does not, and this is what keeps the display out
 * of its reach. No filesystem or network right is handled, so bwrap's mounts are untouched, and
 * the program's own abstract sockets still work. Two raw system calls: glibc has no wrappers.
 */
#ifndef LANDLOCK_SCOPE_H
#define LANDLOCK_SCOPE_H

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_restrict_self 446
#endif

/* linux/landlock.h of older systems lacks `scoped` (ABI 6): the kernel's layout, written out. */
struct scope_ruleset {
  unsigned long long handled_access_fs, handled_access_net, scoped;
};
#define RULESET_VERSION (1U << 0)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)

/* The kernel's Landlock ABI version, or 0 without Landlock. */
static inline int landlock_version(void) {
  int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, RULESET_VERSION);
  return abi < 0 ? 0 : abi;
}

/*
 * Confines the calling process (and what it execs) to its own abstract sockets: 0, or -1 with
 * errno. no_new_privs first, which Landlock asks for (a setuid bwrap is never asked for this).
 */
static inline int scope_abstract_sockets(void) {
  struct scope_ruleset ruleset = {0, 0, SCOPE_ABSTRACT_UNIX_SOCKET};
  int rules = (int)syscall(SYS_landlock_create_ruleset, &ruleset, sizeof ruleset, 0);
  if (rules < 0) return -1;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(SYS_landlock_restrict_self, rules, 0) < 0) {
    close(rules);
    return -1;
  }
  close(rules);
  return 0;
}

#endif
