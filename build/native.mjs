#!/usr/bin/env node
/**
 * Compiles the Linux posix_spawn addon (adapter/process/native/posix-spawn.c) into
 * out/native/posix-spawn.node with the system's C compiler and the headers that ship with
 * Node (include/node beside the node binary). It is Node-API, so one build serves every Node
 * version. Not Linux, no compiler or no headers: nothing is built, and commands start through
 * child_process.spawn (adapter/process/start-child.ts). CI needs it built: with
 * REQUIRE_NATIVE_SPAWN=1 a missing piece is an error.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'adapter', 'process', 'native', 'posix-spawn.c');
const target = path.join(root, 'out', 'native', 'posix-spawn.node');

export function buildNative() {
  if (process.platform !== 'linux') return skip('not Linux');
  const headers = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  if (!fs.existsSync(path.join(headers, 'node_api.h')) || !fs.existsSync(path.join(headers, 'uv.h'))) {
    return skip(`no Node headers in ${headers}`);
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const compiler = process.env.CC || 'cc';
  const flags = ['-O2', '-Wall', '-Wextra', '-Werror', '-shared', '-fPIC', '-DNODE_GYP_MODULE_NAME=posix_spawn', `-I${headers}`];
  try {
    execFileSync(compiler, [...flags, '-o', `${target}.tmp`, source], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (error) {
    fs.rmSync(`${target}.tmp`, { force: true });
    return skip(`${compiler} failed (${error.code ?? `exit ${error.status}`})`);
  }
  fs.renameSync(`${target}.tmp`, target);
}

function skip(why) {
  if (process.env.REQUIRE_NATIVE_SPAWN === '1') throw new Error(`native spawn addon not built: ${why}`);
  console.warn(`native spawn addon not built (${why}): commands start through child_process.spawn`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) buildNative();
