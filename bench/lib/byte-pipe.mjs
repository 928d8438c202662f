/**
 * The least any gateway can cost: a process that pipes the client's bytes to the upstream and
 * back, parsing nothing. The gateway scenario measures it against the upstream directly, as the
 * floor under its own per-call overhead.
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code) => process.exit(code ?? 1));
