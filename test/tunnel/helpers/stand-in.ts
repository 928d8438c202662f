/**
 * The tunnel-client stand-in installed as an executable `tunnel-client` in a temp folder, the
 * records of how it was started, and a fake OpenAI control plane on loopback that the test
 * drives as ChatGPT would: it queues JSON-RPC commands for the tunnel and waits for the answers
 * the client posts back.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const STAND_IN = path.join(import.meta.dirname, '..', 'fixtures', 'fake-tunnel-client.cjs');
export const TUNNEL_ID = 'tunnel_0123456789abcdef0123456789abcdef';
/** Shaped like an OpenAI API key (sk-proj-..., well over 40 characters), as set-key and the window require. */
export const GOOD_KEY = 'sk-proj-tunnelRuntime0123456789abcdefGHIJKLmnopQRSTGOOD';

export interface StartRecord {
  kind: 'run' | 'doctor';
  argv: string[];
  env: Record<string, string>;
  pid: number;
  ppid: number;
}

export interface InstalledStandIn {
  path: string;
  records(): StartRecord[];
}

export function installStandIn(dir: string, fixture: { controlPlaneUrl?: string } = {}): InstalledStandIn {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'tunnel-client');
  fs.copyFileSync(STAND_IN, file);
  fs.chmodSync(file, 0o755);
  const recordFile = path.join(dir, 'starts.jsonl');
  fs.writeFileSync(`${file}.fixture.json`, JSON.stringify({ ...fixture, recordFile }));
  return {
    path: file,
    records: () =>
      fs.existsSync(recordFile)
        ? fs
            .readFileSync(recordFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as StartRecord)
        : [],
  };
}

interface Pending {
  resolve(response: Record<string, any>): void;
}

/** OpenAI's tunnel control plane, as far as the client sees it: poll and response. */
export class FakeControlPlane {
  readonly keys = new Set<string>([GOOD_KEY]);
  polls = 0;
  refused = 0;
  private readonly queue: Record<string, any>[] = [];
  private readonly waiting = new Map<string, Pending>();
  private readonly held = new Set<() => void>();
  private seq = 0;
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const release of this.held) release();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Sends one JSON-RPC request through the tunnel, as ChatGPT would, and waits for the answer. */
  call(jsonrpc: Record<string, unknown>, headers: Record<string, string[]> = {}, timeoutMs = 15_000): Promise<Record<string, any>> {
    const requestId = `req_${++this.seq}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no tunnel response for ${requestId} (${String(jsonrpc.method)})`)), timeoutMs);
      this.waiting.set(requestId, { resolve: (r) => (clearTimeout(timer), resolve(r)) });
      this.queue.push({
        request_id: requestId,
        shard_token: `shard-${requestId}`,
        command_type: 'jsonrpc',
        channel: 'main',
        created_at: new Date().toISOString(),
        headers,
        jsonrpc,
      });
      for (const release of this.held) release();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!this.keys.has(key)) {
      this.refused += 1;
      res.writeHead(401, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
    }
    if (req.method === 'GET' && /^\/v1\/tunnels\/[^/]+\/poll$/.test(url.pathname)) {
      this.polls += 1;
      if (this.queue.length === 0) {
        const wait = Math.min(Number(url.searchParams.get('timeout_ms') ?? 1000), 1000);
        await new Promise<void>((resolve) => {
          const release = () => (this.held.delete(release), clearTimeout(timer), resolve());
          const timer = setTimeout(release, wait);
          this.held.add(release);
        });
      }
      const commands = this.queue.splice(0, 25);
      if (commands.length === 0) return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ commands }));
    }
    if (req.method === 'POST' && /^\/v1\/tunnels\/[^/]+\/response$/.test(url.pathname)) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      this.waiting.get(body.request_id)?.resolve({ ...body, shardToken: req.headers['x-tunnel-shard-token'] });
      this.waiting.delete(body.request_id);
      return void res.writeHead(204).end();
    }
    res.writeHead(404).end();
  }
}

/** Whether a process with this pid is still alive (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\bZ\b/.test(execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

/** Resolves once `check` is true, polling; throws with `what` after the timeout. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `ps` command lines (argv, not environment) of every process on this machine. */
export function allCommandLines(): string {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}
