/*
 * What the Wayland wire needs and Node lacks: a Unix socket whose messages can carry file
 * descriptors (SCM_RIGHTS), and a sealed-size memory file to pass (a keyboard's keymap). The
 * JavaScript side (adapter/desktop/wlroots/wayland-connection.ts) reads the socket through a
 * net.Socket on the same descriptor and writes every message through send(), so requests keep
 * their order whether or not they carry a descriptor.
 *
 *   connect(path) -> fd            a connected SOCK_STREAM Unix socket, close-on-exec
 *   send(fd, bytes, fds[]) -> n    sendmsg, all bytes (waiting while the socket is full)
 *   memfd(name, bytes) -> fd       a memfd holding bytes, close-on-exec
 *   close(fd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <node_api.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 4

static napi_value fail(napi_env env, const char *what) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value number(napi_env env, double value) {
  napi_value out;
  napi_create_double(env, value, &out);
  return out;
}

static napi_value do_connect(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  size_t length = 0;
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], address.sun_path, sizeof address.sun_path, &length) != napi_ok ||
      length >= sizeof address.sun_path - 1) {
    napi_throw_type_error(env, NULL, "connect(path): a socket path shorter than 107 bytes");
    return NULL;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(env, "socket");
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return fail(env, "connect");
  }
  return number(env, fd);
}

static napi_value do_send(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t fd = -1;
  void *data = NULL;
  size_t size = 0;
  uint32_t count = 0;
  if (argc < 3 || napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_buffer_info(env, argv[1], &data, &size) != napi_ok ||
      napi_get_array_length(env, argv[2], &count) != napi_ok || count > MAX_FDS) {
    napi_throw_type_error(env, NULL, "send(fd, buffer, fds): at most 4 descriptors");
    return NULL;
  }
  int fds[MAX_FDS];
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    napi_get_element(env, argv[2], i, &item);
    napi_get_value_int32(env, item, &fds[i]);
  }
  size_t sent = 0;
  while (sent < size) {
    struct iovec part = {.iov_base = (char *)data + sent, .iov_len = size - sent};
    char control[CMSG_SPACE(sizeof(int) * MAX_FDS)];
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    if (sent == 0 && count > 0) { /* the descriptors travel with the first byte */
      memset(control, 0, sizeof control);
      message.msg_control = control;
      message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
      struct cmsghdr *header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(sizeof(int) * count);
      memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
    }
    ssize_t n = sendmsg(fd, &message, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd wait = {.fd = fd, .events = POLLOUT};
      if (poll(&wait, 1, 5000) <= 0) return fail(env, "send: the socket stayed full");
      continue;
    }
    if (n < 0) return fail(env, "sendmsg");
    sent += (size_t)n;
  }
  return number(env, (double)sent);
}

static napi_value do_memfd(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char name[64];
  size_t length = 0;
  void *data = NULL;
  size_t size = 0;
  if (argc < 2 || napi_get_value_string_utf8(env, argv[0], name, sizeof name, &length) != napi_ok ||
      napi_get_buffer_info(env, argv[1], &data, &size) != napi_ok) {
    napi_throw_type_error(env, NULL, "memfd(name, buffer)");
    return NULL;
  }
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return fail(env, "memfd_create");
  size_t written = 0;
  while (written < size) {
    ssize_t n = write(fd, (char *)data + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      close(fd);
      errno = saved;
      return fail(env, "write");
    }
    written += (size_t)n;
  }
  return number(env, fd);
}

static napi_value do_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc == 1 && napi_get_value_int32(env, argv[0], &fd) == napi_ok && fd >= 0) close(fd);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor methods[] = {
      {"connect", NULL, do_connect, NULL, NULL, NULL, napi_default, NULL},
      {"send", NULL, do_send, NULL, NULL, NULL, napi_default, NULL},
      {"memfd", NULL, do_memfd, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, do_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 4, methods);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
