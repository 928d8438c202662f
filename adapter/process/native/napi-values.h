/*
 * Node-API values as C needs them, for posix-spawn.c: JavaScript strings and string arrays as
 * malloc'ed C strings and NULL-terminated lists, and a thrown Error carrying an errno. Included
 * into the one translation unit build/native.mjs compiles, so everything here is static.
 */
#ifndef NAPI_VALUES_H
#define NAPI_VALUES_H

#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != napi_ok) return NULL;                                                                                \
  } while (0)

/* An Error whose errno is the positive errno; start-child.ts names it (ENOENT, ENOEXEC, ...). */
static napi_value throw_errno(napi_env env, int err, const char *syscall) {
  napi_value message, error, number, name;
  napi_create_string_utf8(env, strerror(err), NAPI_AUTO_LENGTH, &message);
  napi_create_error(env, NULL, message, &error);
  napi_create_int32(env, err, &number);
  napi_set_named_property(env, error, "errno", number);
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &name);
  napi_set_named_property(env, error, "syscall", name);
  napi_throw(env, error);
  return NULL;
}

/* A JavaScript string as a malloc'ed C string; NULL (and a TypeError) for anything else or a NUL inside. */
static char *c_string(napi_env env, napi_value value) {
  size_t length;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "expected a string");
    return NULL;
  }
  char *text = malloc(length + 1);
  if (!text) return NULL;
  napi_get_value_string_utf8(env, value, text, length + 1, &length);
  if (strlen(text) != length) {
    free(text);
    napi_throw_type_error(env, "ERR_INVALID_ARG_VALUE", "strings must not contain NUL bytes");
    return NULL;
  }
  return text;
}

static void free_list(char **list) {
  if (!list) return;
  for (char **item = list; *item; item++) free(*item);
  free(list);
}

/* A JavaScript array of strings as a NULL-terminated list. */
static char **c_list(napi_env env, napi_value array) {
  uint32_t count;
  if (napi_get_array_length(env, array, &count) != napi_ok) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "expected an array of strings");
    return NULL;
  }
  char **list = calloc(count + 1, sizeof(char *));
  if (!list) return NULL;
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    list[i] = napi_get_element(env, array, i, &item) == napi_ok ? c_string(env, item) : NULL;
    if (!list[i]) {
      free_list(list);
      return NULL;
    }
  }
  return list;
}

#endif
