/**
 * Environment variables the dynamic loader and the C library act on as any program starts
 * (glibc's list of those it drops for setuid programs, and macOS's DYLD_*): they can load code
 * before the program's own. The sandbox gives them to the program inside only (bwrap, which runs
 * outside it, never sees them), and a gateway entry may not name them at all
 * (main/config/sections/gateway.ts). Matched case-insensitively, as the shell's list is.
 */
export const LOADER_VARIABLE =
  /^(?:LD_.*|DYLD_.*|GCONV_PATH|GETCONF_DIR|GLIBC_TUNABLES|HOSTALIASES|LOCALDOMAIN|LOCPATH|MALLOC_.*|NIS_PATH|NLSPATH|RESOLV_HOST_CONF|RES_OPTIONS|TZDIR)$/i;
