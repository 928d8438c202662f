/**
 * Which sandbox this computer can give commands, found once per process at start: bwrap on the
 * PATH that actually creates the namespaces the sandbox uses (Linux), sandbox-exec that accepts
 * a profile (macOS), nothing on Windows. Synchronous and memoized: the server decides at start
 * whether it can run what the owner asked for, and a probe costs a few milliseconds once.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { helperEnvironment } from '../child-env.js';
import { namespaceArgs } from './bubblewrap.js';
import type { SandboxSupport } from '../../contract/sandbox.js';
import { abstractSocketScope } from '../start-child.js';
import { sandboxGuard } from './launch.js';

const PROBE_TIMEOUT_MS = 10_000;
const INSTALL = 'install it with sudo apt-get install bubblewrap (Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)';
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

const probed = new Map<string, SandboxSupport>();

export function sandboxSupport(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): SandboxSupport {
  const key = `${platform}\0${env.PATH ?? ''}`;
  let support = probed.get(key);
  if (!support) probed.set(key, (support = probe(platform, env)));
  return support;
}

function probe(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): SandboxSupport {
  if (platform === 'linux') return probeBubblewrap(env);
  if (platform === 'darwin') return probeSeatbelt();
  return { mechanism: null, usable: false, problem: `${platform === 'win32' ? 'Windows' : platform} has no sandbox for commands in this version`, fix: null };
}

function probeBubblewrap(env: Readonly<Record<string, string | undefined>>): SandboxSupport {
  const program = findOnPath('bwrap', env.PATH);
  if (!program) {
    return { mechanism: 'bubblewrap', usable: false, problem: 'bubblewrap is not installed (no bwrap on the PATH)', fix: INSTALL };
  }
  const version = run(program, ['--version']);
  if (version.status !== 0) {
    return { mechanism: 'bubblewrap', usable: false, problem: `${program} --version failed: ${firstLine(version.stderr)}`, fix: INSTALL };
  }
  // The sandbox as it will run, with a command that is surely there: bwrap itself.
  const layout = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', program, '--version'];
  let problem = '';
  for (const userNamespace of [true, false]) {
    const tried = run(program, [...namespaceArgs({ userNamespace, privateNetwork: true, privateIpc: true }), ...layout]);
    if (tried.status === 0)
      return {
        mechanism: 'bubblewrap',
        usable: true,
        program,
        version: version.stdout.trim(),
        userNamespace,
        abstractSocketScope: scopesSockets(program),
        guarded: sandboxGuard() !== null,
      };
    problem ||= firstLine(tried.stderr) || `exit code ${tried.status ?? tried.signal}`;
  }
  return {
    mechanism: 'bubblewrap',
    usable: false,
    problem: `bwrap cannot create the sandbox's namespaces here (${problem})`,
    fix: 'allow unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1 on older Debian, an AppArmor profile for bwrap where kernel.apparmor_restrict_unprivileged_userns is 1 (Ubuntu 24.04), or run containers with user namespaces allowed',
  };
}

/** Landlock's scope for abstract sockets (start-child.ts), for a bwrap that is not setuid: no_new_privs, which Landlock needs, would stop a setuid one being setuid. */
function scopesSockets(program: string): boolean {
  return abstractSocketScope() && (fs.statSync(program).mode & 0o4000) === 0;
}

function probeSeatbelt(): SandboxSupport {
  if (!fs.existsSync(SANDBOX_EXEC)) return { mechanism: 'seatbelt', usable: false, problem: `${SANDBOX_EXEC} is missing`, fix: null };
  const tried = run(SANDBOX_EXEC, ['-p', '(version 1)\n(allow default)\n', '/usr/bin/true']);
  if (tried.status !== 0) {
    return {
      mechanism: 'seatbelt',
      usable: false,
      problem: `sandbox-exec refused a profile: ${firstLine(tried.stderr) || `exit code ${tried.status}`}`,
      fix: null,
    };
  }
  return { mechanism: 'seatbelt', usable: true, program: SANDBOX_EXEC, version: 'sandbox-exec', userNamespace: false };
}

function run(file: string, args: string[]): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const result = spawnSync(file, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, env: helperEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.error ? result.error.message : (result.stderr ?? '') };
}

/** which(1), synchronously, to the real path (a link on the PATH is followed once, here). */
function findOnPath(name: string, searchPath: string | undefined): string | null {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      const real = fs.realpathSync(candidate);
      if (fs.statSync(real).isFile()) return real;
    } catch {
      // not here
    }
  }
  return null;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}
