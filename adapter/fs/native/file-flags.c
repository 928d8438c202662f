/*
 * statx(2)'s attributes of one path, not following a final link: whether the file is immutable
 * (chattr +i) or append-only (chattr +a). Either makes a removal fail partway (tree.ts asks before
 * it takes anything); no Node API reads them, and lsattr is a process per file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <node_api.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* attributes(path: string | Buffer) -> the set attributes among those the filesystem reports (STATX_ATTR_*), or null */
static napi_value attributes(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], result;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_null(env, &result);
  if (argc < 1) return result;
  char *path = NULL;
  bool isBuffer = false;
  napi_is_buffer(env, argv[0], &isBuffer);
  if (isBuffer) {
    void *data;
    size_t length;
    if (napi_get_buffer_info(env, argv[0], &data, &length) != napi_ok || memchr(data, 0, length) != NULL) return result;
    path = malloc(length + 1);
    if (path == NULL) return result;
    memcpy(path, data, length);
    path[length] = 0;
  } else {
    size_t length;
    if (napi_get_value_string_utf8(env, argv[0], NULL, 0, &length) != napi_ok) return result;
    path = malloc(length + 1);
    if (path == NULL) return result;
    napi_get_value_string_utf8(env, argv[0], path, length + 1, &length);
    if (strlen(path) != length) {
      free(path);
      return result;
    }
  }
  struct statx stx;
  int failed = statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT, STATX_TYPE, &stx);
  free(path);
  if (failed != 0) return result;
  napi_create_int64(env, (int64_t)(stx.stx_attributes & stx.stx_attributes_mask), &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor methods[] = {{"attributes", NULL, attributes, NULL, NULL, NULL, napi_default, NULL}};
  napi_define_properties(env, exports, 1, methods);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
