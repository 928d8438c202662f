/*
 * Linux process start without fork(): vfork(2) then execve(2), the way glibc's posix_spawn(3)
 * does it (clone(CLONE_VM | CLONE_VFORK)), so starting a command does not copy (and then tear
 * down) the server's page tables. libuv forks, and for a server holding ~70 MiB that copy was the
 * main cost of a short command. Same contract as the child_process.spawn options used before:
 * exactly the given argv, argv[0] and environment, no PATH lookup and no shell (execve never
 * retries ENOEXEC through /bin/sh), a new session (setsid), every signal back to its default and
 * none blocked, stdin from /dev/null or a pipe, stdout and stderr to pipes, and no other
 * descriptor: everything from 3 up is closed in the child (libuv relies on close-on-exec, which a
 * descriptor inherited from the server's parent or opened by a library may lack), but the ones
 * the caller hands on (handed-fds.h).
 *
 * And one thing posix_spawn cannot do: the child asks the kernel for SIGKILL when the server
 * dies (PR_SET_PDEATHSIG), so a command, a process handle, the tunnel client or a gateway
 * upstream never outlives a server that was killed with SIGKILL. (A sandboxed command's whole
 * sandbox goes with it: bwrap runs with --die-with-parent in its own pid namespace.)
 *
 * And, asked to (a sandbox without the display), the child confines itself to its own abstract
 * Unix sockets before it execs bwrap (landlock-scope.h).
 *
 * The exit is watched through a pidfd polled on the event loop; libuv reaps only the pids it
 * started, so the child is ours to wait for. JavaScript wraps this in start-child.ts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "handed-fds.h"
#include "landlock-scope.h"
#include "napi-values.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

typedef struct watch watch_t;

/* One per Node environment (the main thread, or a worker): the children it still watches. */
typedef struct {
  watch_t *live;
  int open_polls; /* polls not yet closed: their close callbacks run code of this library */
  napi_async_cleanup_hook_handle teardown; /* set once the environment is going away */
} env_state_t;

struct watch {
  uv_poll_t poll;
  int pidfd;
  pid_t pid;
  napi_env env;
  napi_ref on_exit;
  napi_async_context context;
  bool closed; /* the poll handle is closing or closed: the child was reaped */
  int owners;  /* the poll handle and the JavaScript external; freed when both let go */
  env_state_t *state;
  watch_t *prev, *next;
};

static void unlink_watch(watch_t *watch) {
  if (watch->prev) watch->prev->next = watch->next;
  else watch->state->live = watch->next;
  if (watch->next) watch->next->prev = watch->prev;
  watch->prev = watch->next = NULL;
}

/*
 * Every signal, glibc's two internal ones (32 and 33) included, which sigfillset leaves out: the
 * set blocked around vfork (pthread_sigmask keeps those two as glibc needs them; exec resets
 * every caught signal to its default anyway).
 */
static void every_signal(sigset_t *set) {
  sigfillset(set);
#ifdef __GLIBC__
  unsigned long *words = (unsigned long *)set;
  const int bits = 8 * sizeof(unsigned long);
  for (int sig = 32; sig <= 33; sig++) words[(sig - 1) / bits] |= 1UL << ((sig - 1) % bits);
#endif
}

static void close_all(int *fds, int count) {
  for (int i = 0; i < count; i++)
    if (fds[i] >= 0) close(fds[i]);
}

/* A close-on-exec pipe whose ends are both above 2, so no dup2 onto 0-2 can clobber another. */
static int high_pipe(int ends[2]) {
  if (pipe2(ends, O_CLOEXEC) < 0) return -1;
  for (int i = 0; i < 2; i++) {
    if (ends[i] > 2) continue;
    int moved = fcntl(ends[i], F_DUPFD_CLOEXEC, 3);
    int saved = errno;
    close(ends[i]);
    ends[i] = moved;
    if (moved < 0) {
      close(ends[1 - i]);
      ends[0] = ends[1] = -1;
      errno = saved;
      return -1;
    }
  }
  return 0;
}

static void release(watch_t *watch) {
  if (--watch->owners == 0) free(watch);
}

/* The environment may end (and a worker's unload this library) only once no poll is left to close. */
static void poll_gone(env_state_t *state) {
  if (--state->open_polls > 0 || !state->teardown) return;
  napi_remove_async_cleanup_hook(state->teardown);
  free(state);
}

static void on_closed(uv_handle_t *handle) {
  watch_t *watch = (watch_t *)handle;
  env_state_t *state = watch->state;
  close(watch->pidfd);
  release(watch);
  poll_gone(state);
}

static void on_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  release(data);
}

static void on_readable(uv_poll_t *poll, int status, int events) {
  (void)status;
  (void)events;
  watch_t *watch = (watch_t *)poll;
  int wstatus;
  pid_t done;
  do done = waitpid(watch->pid, &wstatus, WNOHANG);
  while (done < 0 && errno == EINTR);
  if (done == 0) return; /* not yet: a pidfd is readable only once the process ended, but be sure */
  uv_poll_stop(poll);
  watch->closed = true;
  unlink_watch(watch);

  napi_env env = watch->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value code, signal, callback, global, result;
  if (done > 0 && WIFEXITED(wstatus)) {
    napi_create_int32(env, WEXITSTATUS(wstatus), &code);
    napi_get_null(env, &signal);
  } else if (done > 0 && WIFSIGNALED(wstatus)) {
    napi_get_null(env, &code);
    napi_create_int32(env, WTERMSIG(wstatus), &signal);
  } else {
    napi_get_null(env, &code); /* waitpid failed: someone else reaped it; report an unknown end */
    napi_get_null(env, &signal);
  }
  napi_get_reference_value(env, watch->on_exit, &callback);
  napi_get_global(env, &global);
  napi_value argv[2] = {code, signal};
  /* start-child.ts rethrows a listener's exception from setImmediate, where Node reports it; an
   * exception left pending here would be thrown again by the next unrelated addon call. */
  if (napi_make_callback(env, watch->context, global, callback, 2, argv, &result) != napi_ok) {
    napi_value ignored;
    napi_get_and_clear_last_exception(env, &ignored);
  }
  napi_delete_reference(env, watch->on_exit);
  napi_async_destroy(env, watch->context);
  napi_close_handle_scope(env, scope);
  uv_close((uv_handle_t *)poll, on_closed);
}

/*
 * vfork + execve with everything the command needs set up in the child, which shares our memory
 * until it execs: only system calls there, and an exec failure reported through `failed`. Every
 * signal is blocked around vfork, so no handler of ours can run in the child before it has put
 * every disposition back to the default. Returns 0, or the errno of what failed.
 */
static int start_dying_with_us(pid_t *out, const char *file, char *const argv[], char *const envp[], const char *cwd, int stdin_fd, int stdout_fd,
                               int stderr_fd, bool scope_sockets, const handed_t *handed) {
  sigset_t all, none, previous;
  every_signal(&all);
  sigemptyset(&none);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  const pid_t parent = getpid();
  volatile int failed = 0;
  pid_t pid = vfork();
  if (pid == 0) {
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) sigaction(sig, &default_action, NULL); /* SIGKILL, SIGSTOP and glibc's own refuse: fine */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) goto fail;
    if (getppid() != parent) _exit(127); /* the server died already: do not start */
    if (setsid() < 0) goto fail;
    int in = stdin_fd >= 0 ? stdin_fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in < 0 || dup2(in, 0) < 0 || dup2(stdout_fd, 1) < 0 || dup2(stderr_fd, 2) < 0) goto fail;
    if (put_handed_in_place(handed) < 0) goto fail;
    /* Nothing else reaches the command, not even a descriptor some library left inheritable. */
    const int first_free = 3 + handed->count;
    if (syscall(SYS_close_range, first_free, ~0U, 0) < 0)
      for (int fd = first_free; fd < 65536; fd++) close(fd);
    if (cwd && chdir(cwd) < 0) goto fail;
    if (scope_sockets && scope_abstract_sockets() < 0) goto fail;
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(file, argv, envp);
  fail:
    failed = errno ? errno : EINVAL;
    _exit(127);
  }
  int saved = errno;
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  if (pid < 0) return saved;
  if (failed) {
    int reason = failed;
    waitpid(pid, NULL, 0);
    return reason;
  }
  *out = pid;
  return 0;
}

/*
 * spawn(file, argv, env, cwd | null, pipeStdin, onExit(code | null, signal | null), scopeSockets?, handOn?: fd[])
 *   -> [pid, stdinFd | -1, stdoutFd, stderrFd, watch]
 * Throws an Error with the errno's code (ENOENT, EACCES, ...) when the program cannot start.
 */
static napi_value spawn_command(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value args[8];
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  bool scope_sockets = false;
  if (argc >= 7 && napi_get_value_bool(env, args[6], &scope_sockets) != napi_ok) scope_sockets = false;
  napi_valuetype cwd_type, callback_type;
  bool pipe_stdin;
  napi_typeof(env, args[3], &cwd_type);
  napi_typeof(env, args[5], &callback_type);
  if (argc < 6 || callback_type != napi_function || napi_get_value_bool(env, args[4], &pipe_stdin) != napi_ok) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "spawn(file, argv, env, cwd, pipeStdin, onExit)");
    return NULL;
  }

  char *file = NULL, *cwd = NULL, **argv = NULL, **envp = NULL;
  napi_value result = NULL;
  int fds[6] = {-1, -1, -1, -1, -1, -1}; /* stdin r/w, stdout r/w, stderr r/w */
  handed_t handed = {NULL, NULL, 0};
  if (!handed_from(env, args[7], argc >= 8, &handed) || !(file = c_string(env, args[0])) || !(argv = c_list(env, args[1])) || !(envp = c_list(env, args[2]))) goto done;
  if (cwd_type != napi_null && cwd_type != napi_undefined && !(cwd = c_string(env, args[3]))) goto done;
  if ((pipe_stdin && high_pipe(&fds[0]) < 0) || high_pipe(&fds[2]) < 0 || high_pipe(&fds[4]) < 0) {
    throw_errno(env, errno, "pipe2");
    goto done;
  }

  pid_t pid;
  int err = start_dying_with_us(&pid, file, argv, envp, cwd, pipe_stdin ? fds[0] : -1, fds[3], fds[5], scope_sockets, &handed);
  if (err != 0) {
    throw_errno(env, err, "spawn");
    goto done;
  }
  /* Our child stays a zombie until we wait, so its pid cannot be reused before pidfd_open. */
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  watch_t *watch = pidfd < 0 ? NULL : calloc(1, sizeof(watch_t));
  uv_loop_t *loop;
  if (!watch || napi_get_uv_event_loop(env, &loop) != napi_ok || uv_poll_init(loop, &watch->poll, pidfd) != 0) {
    int saved = pidfd < 0 ? errno : ENOMEM;
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (pidfd >= 0) close(pidfd);
    free(watch);
    throw_errno(env, saved, pidfd < 0 ? "pidfd_open" : "uv_poll_init");
    goto done;
  }
  watch->pidfd = pidfd;
  watch->pid = pid;
  watch->env = env;
  watch->owners = 2;
  napi_get_instance_data(env, (void **)&watch->state);
  watch->state->open_polls++;
  watch->next = watch->state->live;
  if (watch->next) watch->next->prev = watch;
  watch->state->live = watch;
  napi_value resource_name;
  napi_create_string_utf8(env, "NativeChild", NAPI_AUTO_LENGTH, &resource_name);
  napi_create_reference(env, args[5], 1, &watch->on_exit);
  napi_async_init(env, NULL, resource_name, &watch->context);
  uv_poll_start(&watch->poll, UV_READABLE, on_readable);

  /* The child's ends are closed here; the parent keeps stdin's write end and the read ends. */
  close(fds[3]);
  close(fds[5]);
  fds[3] = fds[5] = -1;
  if (pipe_stdin) {
    close(fds[0]);
    fds[0] = -1;
  }
  napi_value items[5], handle;
  napi_create_int32(env, pid, &items[0]);
  napi_create_int32(env, pipe_stdin ? fds[1] : -1, &items[1]);
  napi_create_int32(env, fds[2], &items[2]);
  napi_create_int32(env, fds[4], &items[3]);
  napi_create_external(env, watch, on_finalize, NULL, &handle);
  items[4] = handle;
  napi_create_array_with_length(env, 5, &result);
  for (uint32_t i = 0; i < 5; i++) napi_set_element(env, result, i, items[i]);
  fds[1] = fds[2] = fds[4] = -1; /* now owned by JavaScript */

done:
  close_all(fds, 6);
  handed_free(&handed);
  free(file);
  free(cwd);
  free_list(argv);
  free_list(envp);
  return result;
}

/* ref(watch, yes): whether the running child keeps the event loop alive (ChildProcess.ref/unref). */
static napi_value set_ref(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2];
  void *data;
  bool yes;
  CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
  CHECK(napi_get_value_external(env, args[0], &data));
  CHECK(napi_get_value_bool(env, args[1], &yes));
  watch_t *watch = data;
  if (!watch->closed) {
    if (yes) uv_ref((uv_handle_t *)&watch->poll);
    else uv_unref((uv_handle_t *)&watch->poll);
  }
  return NULL;
}

/* usable(): whether this kernel gives pidfds (Linux >= 5.3, and no seccomp filter refusing them). */
static napi_value usable(napi_env env, napi_callback_info info) {
  (void)info;
  int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
  if (pidfd >= 0) close(pidfd);
  napi_value result;
  napi_get_boolean(env, pidfd >= 0, &result);
  return result;
}

/*
 * The environment is going away (the process exits, or a worker ends) with children still
 * running: stop watching them, so no exit is delivered into a torn-down environment, and hold
 * the teardown until their polls are closed (a worker unloads this library right after).
 * The children run on, as child_process's do.
 */
static void on_env_teardown(napi_async_cleanup_hook_handle handle, void *data) {
  env_state_t *state = data;
  state->teardown = handle;
  for (watch_t *watch = state->live, *next; watch; watch = next) {
    next = watch->next;
    watch->closed = true;
    watch->prev = watch->next = NULL;
    uv_poll_stop(&watch->poll);
    uv_close((uv_handle_t *)&watch->poll, on_closed);
  }
  state->live = NULL;
  state->open_polls++; /* this hook's own share, given back at once */
  poll_gone(state);
}

/* landlockAbi(): the kernel's Landlock ABI version, or 0 without Landlock (6 and up scope abstract sockets). */
static napi_value landlock_abi(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_create_int32(env, landlock_version(), &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  env_state_t *state = calloc(1, sizeof(env_state_t));
  if (!state || napi_set_instance_data(env, state, NULL, NULL) != napi_ok || napi_add_async_cleanup_hook(env, on_env_teardown, state, NULL) != napi_ok) {
    free(state);
    napi_throw_error(env, NULL, "posix-spawn: cannot keep per-environment state");
    return NULL;
  }
  napi_property_descriptor methods[] = {
      {"spawn", NULL, spawn_command, NULL, NULL, NULL, napi_default, NULL},
      {"ref", NULL, set_ref, NULL, NULL, NULL, napi_default, NULL},
      {"usable", NULL, usable, NULL, NULL, NULL, napi_default, NULL},
      {"landlockAbi", NULL, landlock_abi, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 4, methods);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
