/*
 * Descriptors a command is handed besides stdin, stdout and stderr, for posix-spawn.c: the places
 * its bubblewrap sandbox mounts from, opened by the server (adapter/process/sandbox/bind-sources.ts).
 * The child gets them as 3, 4, ... in the order given. Included into the one translation unit
 * build/native.mjs compiles, so everything here is static.
 */
#ifndef HANDED_FDS_H
#define HANDED_FDS_H

#include <fcntl.h>
#include <node_api.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_HANDED 4096

typedef struct {
  int *fds;
  /* Where the child lifts each before putting it in place: allocated here, as the vforked child may only make system calls. */
  int *lifted;
  int count;
} handed_t;

/* An optional JavaScript array of descriptors; false (and a pending exception) for anything else. */
static bool handed_from(napi_env env, napi_value value, bool given, handed_t *handed) {
  uint32_t count = 0;
  bool is_array = false;
  if (given && napi_is_array(env, value, &is_array) == napi_ok && is_array && napi_get_array_length(env, value, &count) != napi_ok) return false;
  if (count > MAX_HANDED) {
    napi_throw_range_error(env, "ERR_OUT_OF_RANGE", "at most 4096 descriptors can be handed on");
    return false;
  }
  handed->count = (int)count;
  handed->fds = calloc(count + 1, sizeof(int));
  handed->lifted = calloc(count + 1, sizeof(int));
  if (!handed->fds || !handed->lifted) {
    napi_throw_error(env, "ENOMEM", "out of memory");
    return false;
  }
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    int32_t fd;
    if (napi_get_element(env, value, i, &item) != napi_ok || napi_get_value_int32(env, item, &fd) != napi_ok || fd < 0) {
      napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "handOn: expected an array of descriptors");
      return false;
    }
    handed->fds[i] = fd;
  }
  return true;
}

/* In the child: each to 3 + its index, lifted above that range first so none is overwritten before it moved. -1 on failure. */
static int put_handed_in_place(const handed_t *handed) {
  for (int i = 0; i < handed->count; i++)
    if ((handed->lifted[i] = fcntl(handed->fds[i], F_DUPFD, 3 + handed->count)) < 0) return -1;
  for (int i = 0; i < handed->count; i++)
    if (dup2(handed->lifted[i], 3 + i) < 0) return -1;
  return 0;
}

static void handed_free(handed_t *handed) {
  free(handed->fds);
  free(handed->lifted);
}

#endif
