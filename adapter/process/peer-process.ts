/**
 * Protocol peers: long-lived programs the server talks to over stdin and stdout (the gateway's
 * upstream MCP servers). Started like a command (launch in run-command.ts: no shell, exactly the
 * planned environment, inside the sandbox plan, leading its own process group on POSIX) but with
 * stdin piped and no deadline; the caller reads and writes the pipes and decides when it ends.
 *
 * Lifetime: `stop` ends the whole group, and on Linux what left it (escaped-descendants.ts). Every live peer is also ended by closeAll (server
 * shutdown) and, as a last resort, when this process exits without closing (a SIGKILL of the
 * group from the 'exit' handler); a server killed with SIGKILL takes it along too (the spawn
 * addon's PR_SET_PDEATHSIG and the server's lifeline watcher, lifeline.ts).
 */
import type { PeerProcess, PeerRequest } from '../contract/processes.js';
import { escapedDescendants, signalEscaped } from './escaped-descendants.js';
import { taskkillTree, terminateGroup } from './kill-tree.js';
import { launch, type Launched } from './run-command.js';

/** launch checks a command's bounds; a peer has none of its own (the gateway times its calls). */
const NO_DEADLINE = 2 ** 31 - 1;

export class PeerSet {
  private readonly live = new Set<Launched>();
  private hooked = false;

  constructor(private readonly platform: NodeJS.Platform) {}

  async start(request: PeerRequest): Promise<PeerProcess> {
    const launched = await launch({ ...request, timeoutMs: NO_DEADLINE, maxOutputBytes: 0 }, this.platform, 'pipe');
    this.live.add(launched);
    this.hookExit();
    const { child, pid } = launched;
    const exited = launched.exited.then(({ code, signal }) => ({ code, signal: signal ?? null }));
    void exited.then(() => this.live.delete(launched));
    const stdin = child.stdin!;
    let stopping: Promise<void> | null = null;
    return {
      pid,
      exited,
      write: (data) => !stdin.destroyed && stdin.writable && stdin.write(data),
      onDrain: (listener) => void stdin.on('drain', listener),
      onStdout: (listener) => void child.stdout.on('data', listener),
      onStderr: (listener) => void child.stderr.on('data', listener),
      stop: (graceMs) => (stopping ??= this.end(launched, graceMs)),
    };
  }

  /** Ends every live peer (server shutdown). */
  async closeAll(graceMs = 2000): Promise<void> {
    await Promise.all([...this.live].map((launched) => this.end(launched, graceMs)));
  }

  private async end(launched: Launched, graceMs: number): Promise<void> {
    const { child, pid } = launched;
    // Found before anything ends, while their parent links still lead here.
    const escaped = this.platform === 'linux' ? await escapedDescendants(pid) : [];
    child.stdin?.end();
    if (this.platform === 'win32') {
      if (!(await taskkillTree(pid))) child.kill('SIGKILL');
    } else {
      await signalEscaped(escaped, 'SIGTERM');
      await terminateGroup(pid, graceMs, this.platform);
      await signalEscaped(escaped, 'SIGKILL');
    }
    // Whatever a descendant still holds open must not keep this process alive.
    child.stdout.destroy();
    child.stderr.destroy();
    this.live.delete(launched);
  }

  /** Peers still alive when this process exits are killed with it (exit handlers run synchronously). */
  private hookExit(): void {
    if (this.hooked || this.platform === 'win32') return;
    this.hooked = true;
    process.once('exit', () => {
      for (const { pid } of this.live) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
}
