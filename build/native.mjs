#!/usr/bin/env node
/**
 * Compiles the Linux addons into out/native/ with the system's C compiler and the headers
 * that ship with Node (include/node beside the node binary; node-gyp would fetch them from
 * the internet):
 *   posix-spawn.node  commands start without fork() (adapter/process/start-child.ts)
 *   malloc-trim.node  the idle trimmer hands freed C heap back (main/mcp/idle-memory.ts)
 *   unix-fd.node      file descriptors over a Unix socket, for the Wayland wire (adapter/desktop/wlroots/)
 *   file-flags.node   whether a file is immutable or append-only, before a removal (adapter/fs/file-flags.ts)
 * and one program, linked statically (no loader: the variables a sandboxed command gets load nothing into it):
 *   sandbox-guard     checks a bubblewrap sandbox's mounts before its command runs (adapter/process/sandbox/guard-plan.ts)
 * They are Node-API, so one build serves every Node version. Not Linux, no compiler or no
 * headers: nothing is built, and the server does without them. CI needs them built: with
 * REQUIRE_NATIVE_SPAWN=1 a missing piece is an error.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ADDONS = {
  'posix-spawn': 'adapter/process/native/posix-spawn.c',
  'malloc-trim': 'adapter/os/native/malloc-trim.c',
  'unix-fd': 'adapter/desktop/native/unix-fd.c',
  'file-flags': 'adapter/fs/native/file-flags.c',
};
const PROGRAMS = {
  'sandbox-guard': 'adapter/process/native/sandbox-guard.c',
};

export function buildNative() {
  // Whatever an earlier build left must not stand in for these sources.
  fs.rmSync(path.join(root, 'out', 'native'), { recursive: true, force: true });
  if (process.platform !== 'linux') return skip('not Linux');
  const headers = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  if (!fs.existsSync(path.join(headers, 'node_api.h')) || !fs.existsSync(path.join(headers, 'uv.h'))) {
    return skip(`no Node headers in ${headers}`);
  }
  // CC may carry flags ("ccache gcc"); warnings stop the build only where it is required (CI).
  const [compiler, ...ccFlags] = (process.env.CC || 'cc').trim().split(/\s+/);
  const strict = process.env.REQUIRE_NATIVE_SPAWN === '1' ? ['-Werror'] : [];
  const common = [...ccFlags, '-O2', '-Wall', '-Wextra', ...strict];
  for (const [name, source] of Object.entries(ADDONS)) {
    const flags = [...common, '-shared', '-fPIC', `-DNODE_GYP_MODULE_NAME=${name.replace('-', '_')}`, `-I${headers}`];
    compile(compiler, flags, source, path.join(root, 'out', 'native', `${name}.node`));
  }
  for (const [name, source] of Object.entries(PROGRAMS)) compile(compiler, [...common, '-static'], source, path.join(root, 'out', 'native', name));
}

/** Compiles `source` to `target` through a temporary file, so a failed build leaves nothing behind. */
function compile(compiler, flags, source, target) {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    execFileSync(compiler, [...flags, '-o', `${target}.tmp`, path.join(root, source)], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (error) {
    fs.rmSync(`${target}.tmp`, { force: true });
    skip(`${compiler} failed on ${source} (${error.code ?? `exit ${error.status}`})`);
    return;
  }
  fs.renameSync(`${target}.tmp`, target);
}

function skip(why) {
  if (process.env.REQUIRE_NATIVE_SPAWN === '1') throw new Error(`native addons not built: ${why}`);
  console.warn(`native addons not built (${why}): the server does without them`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) buildNative();
