/**
 * Starts a configured app detached from the server: no shell (so args are never parsed), stdio
 * ignored, unref'd so the server neither waits for it nor keeps it as a child it must reap later.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { adapterError } from '../contract/errors.js';
import type { AppSpec } from '../contract/apps.js';
import { shortEnvironment } from '../process/child-env.js';

const OP = 'app.launch';

export async function launchApp(app: AppSpec): Promise<{ pid: number }> {
  await checkExecutable(app.path);
  const child = spawn(app.path, [...app.args], { detached: true, stdio: 'ignore', shell: false, windowsHide: false, env: shortEnvironment(process.env) });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) => reject(spawnError(app.path, error)));
  });
  child.unref();
  if (child.pid === undefined) throw adapterError('OS_ERROR', OP, `${app.path} started without a process id`);
  return { pid: child.pid };
}

async function checkExecutable(file: string): Promise<void> {
  if (!path.isAbsolute(file)) throw adapterError('INVALID_INPUT', OP, `the app path must be absolute, got ${file}`);
  const info = await stat(file).catch(() => null);
  if (!info) throw adapterError('NOT_FOUND', OP, `the configured executable ${file} does not exist`);
  if (info.isDirectory()) {
    const hint = /\.app$/i.test(file)
      ? `; for a macOS bundle configure the executable inside it, e.g. ${path.join(file, 'Contents', 'MacOS', path.basename(file, '.app'))}`
      : '';
    throw adapterError('INVALID_INPUT', OP, `the configured path ${file} is a directory, not an executable${hint}`);
  }
  if (process.platform === 'win32' && /\.(bat|cmd)$/i.test(file)) {
    throw adapterError('INVALID_INPUT', OP, `${file} is a batch file, which Windows can only run through cmd.exe; configure the program's .exe instead`);
  }
}

function spawnError(file: string, error: NodeJS.ErrnoException): Error {
  switch (error.code) {
    case 'ENOENT':
      return adapterError('NOT_FOUND', OP, `the configured executable ${file} does not exist (or its interpreter is missing)`);
    case 'EACCES':
      return adapterError('OS_ERROR', OP, `${file} is not executable by this user`);
    case 'ENOEXEC':
      return adapterError('OS_ERROR', OP, `${file} is not a program this OS can run`);
    default:
      return adapterError('OS_ERROR', OP, `${file} could not be started (${error.code ?? error.name})`);
  }
}
