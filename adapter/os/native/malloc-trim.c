/*
 * malloc_trim(3) for the idle trimmer (main/mcp/idle-memory.ts). A full V8 collection frees
 * the JavaScript heap, but what Node's C++ side (buffers, zlib, TLS, libuv) freed stays in
 * glibc's arenas, counted as resident. malloc_trim(0) gives the free pages of every arena back
 * to the OS: about 9 MiB more after a burst of 1 MiB reads, for about a millisecond.
 */
#include <malloc.h>
#include <node_api.h>

/* trim() -> whether any memory was given back */
static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_get_boolean(env, malloc_trim(0) == 1, &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor methods[] = {{"trim", NULL, trim, NULL, NULL, NULL, napi_default, NULL}};
  napi_define_properties(env, exports, 1, methods);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
