/*
 * sandbox-guard: the program a bubblewrap sandbox starts first, once bwrap has made every mount
 * (adapter/process/sandbox/guard-plan.ts says which it checks). bwrap finds where to mount by
 * path, and another program can move a folder in a writable root between the server's check and
 * bwrap's mounts: bwrap then makes the old place anew and mounts there, so a repository's hooks
 * stay writable where the folder went. So, before the command runs, for each place the plan
 * mounted, with descriptors the server opened on the real folder it is in and on the real thing
 * it mounts (the kernel names them by their present path, wherever they were moved):
 *  - the folder is still where the plan saw it, and the place's folder in here is that very
 *    folder, with no link on the way (same device and inode);
 *  - the place is a mount point (its mount is not its folder's);
 *  - what it mounts is still at the place, and is what the mount shows.
 * Then the mount sits on the real place, showing the real thing; a mount stays on the place it
 * was made on however that is renamed later (one something is renamed over or removed comes off:
 * the server then stops the command, adapter/process/sandbox/cover-watch.ts). A check
 * failing: one line on stderr, exit 125, nothing runs. Else every descriptor above stderr is
 * closed (the handed ones reach real folders past every cover) and the command is exec'd as bwrap
 * would have, but with no shell for a file that is no program.
 *
 * Linked statically (build/native.mjs): the loader variables the command gets (LD_PRELOAD and
 * the like, set by bwrap's --setenv) load nothing into it.
 *
 * With --started FD, it first writes one byte to FD (a nameless file the server made): that it
 * ran at all says bwrap set the sandbox up; a bwrap that failed before (a place moved while it
 * mounted) leaves the file empty, and the server then knows nothing ran, whatever the output says.
 *
 * Usage: sandbox-guard [--started FD] N FOLDER_FD1 SOURCE_FD1|- PLACE1 ... COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REFUSED 125
#define PREFIX "chatgpt-mcp sandbox: "

static int refuse(const char *place, const char *what) {
  fprintf(stderr, PREFIX "%s %s while the command was starting (by another program); nothing ran\n", place, what);
  return REFUSED;
}

/* The id of the mount `name` (relative to `dir`, not followed) is on, in `id`; -1 where the kernel cannot say. */
static int mount_of(int dir, const char *name, unsigned long long *id) {
  struct statx sx;
  int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (*name ? 0 : AT_EMPTY_PATH);
  if (statx(dir, name, flags, STATX_MNT_ID, &sx) == 0 && (sx.stx_mask & STATX_MNT_ID)) {
    *id = sx.stx_mnt_id;
    return 0;
  }
  /* Before Linux 5.8: the id that comes with a file handle (where the filesystem gives handles). */
  union {
    struct file_handle handle;
    char room[sizeof(struct file_handle) + MAX_HANDLE_SZ];
  } buffer;
  buffer.handle.handle_bytes = MAX_HANDLE_SZ;
  int mount;
  if (name_to_handle_at(dir, name, &buffer.handle, &mount, *name ? 0 : AT_EMPTY_PATH) != 0) return -1;
  *id = (unsigned long long)mount;
  return 0;
}

/* Whether descriptor `fd` names `path` now (the kernel follows renames; "(deleted)" never matches). */
static int names(int fd, const char *path, size_t length) {
  char link[64], seen[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t got = readlink(link, seen, sizeof seen);
  return got >= 0 && (size_t)got == length && memcmp(seen, path, length) == 0;
}

static int same(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* 0 when `place` checks out against its folder's descriptor and its source's (-1: it mounts no source); else the exit status. */
static int check(int folder_fd, int source_fd, const char *place) {
  char folder[PATH_MAX];
  size_t length = strlen(place);
  const char *slash = strrchr(place, '/');
  if (place[0] != '/' || !slash || slash[1] == '\0' || length >= sizeof folder) return refuse(place, "is no place the guard can check");
  size_t cut = slash == place ? 1 : (size_t)(slash - place);
  memcpy(folder, place, cut);
  folder[cut] = '\0';
  if (!names(folder_fd, folder, cut)) return refuse(folder, "was moved or removed");

  int dir = open(folder, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir < 0) return refuse(folder, "was moved or removed");
  struct stat here, real, shown;
  int status = 0;
  if (!names(dir, folder, cut) || fstat(dir, &here) != 0 || fstat(folder_fd, &real) != 0 || !same(&here, &real))
    status = refuse(folder, "was moved or replaced");
  else if (fstatat(dir, slash + 1, &shown, AT_SYMLINK_NOFOLLOW) != 0)
    status = refuse(place, "was moved or removed");
  else {
    unsigned long long inner, outer;
    if (mount_of(dir, slash + 1, &inner) != 0 || mount_of(dir, "", &outer) != 0)
      status = refuse(place, "could not be checked (its filesystem gives no mount id on this kernel)");
    else if (inner == outer) status = refuse(place, "was moved");
    else if (source_fd >= 0 && (!names(source_fd, place, length) || fstat(source_fd, &real) != 0 || !same(&shown, &real)))
      status = refuse(place, "was moved");
  }
  close(dir);
  return status;
}

static int descriptor(const char *text) {
  char *end;
  long fd = strtol(text, &end, 10);
  return *end == '\0' && fd >= 3 && fd <= INT_MAX ? (int)fd : -1;
}

static void close_above_stderr(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  long most = sysconf(_SC_OPEN_MAX);
  for (long fd = 3; fd < (most > 0 && most < 1L << 20 ? most : 1L << 20); fd++) close((int)fd);
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--started") == 0) {
    int started = descriptor(argv[2]);
    if (started < 0 || write(started, "1", 1) != 1) {
      fprintf(stderr, PREFIX "usage: --started names no descriptor it can write to\n");
      return REFUSED;
    }
    argc -= 2;
    argv += 2;
  }
  char *end = NULL;
  long count = argc > 1 ? strtol(argv[1], &end, 10) : -1;
  if (count < 0 || !end || *end != '\0' || 2 + 3 * count >= argc) {
    fprintf(stderr, PREFIX "usage: sandbox-guard [--started FD] N FOLDER_FD1 SOURCE_FD1|- PLACE1 ... COMMAND [ARG...]\n");
    return REFUSED;
  }
  for (long i = 0; i < count; i++) {
    char **triple = argv + 2 + 3 * i;
    int folder_fd = descriptor(triple[0]), source_fd = strcmp(triple[1], "-") == 0 ? -1 : descriptor(triple[1]);
    if (folder_fd < 0 || (source_fd < 0 && strcmp(triple[1], "-") != 0)) return refuse(triple[2], "came without its descriptors");
    int status = check(folder_fd, source_fd, triple[2]);
    if (status != 0) return status;
  }
  close_above_stderr();
  char **command = argv + 2 + 3 * count;
  execv(command[0], command);
  fprintf(stderr, PREFIX "execv %s: %s\n", command[0], strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
