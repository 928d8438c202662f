/**
 * Scenario: fs.download of a 1 MiB body from a loopback HTTPS server, through our stdio server
 * (the v1 client), against curl fetching the same URL into a file (a new process per call, as an
 * owner would run it). Wall time per call; both trust the same self-signed certificate, ours
 * through download.testLoopbackOrigin and NODE_EXTRA_CA_CERTS.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { NO_GOAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { REPO } from '../lib/peers.mjs';

const ID = 'fs.download 1 MiB stdio vs curl';
const MAX_CALLS_PER_ROUND = 500;

function curlRunner(url, caFile, target) {
  return async (durationMs) => {
    const latencies = [];
    const started = performance.now();
    while (latencies.length < MAX_CALLS_PER_ROUND && performance.now() < started + durationMs) {
      const t0 = performance.now();
      await new Promise((resolve, reject) =>
        execFile('curl', ['-sf', '--noproxy', '*', '--cacert', caFile, '-o', target, url], (error) => (error ? reject(error) : resolve())),
      );
      latencies.push(performance.now() - t0);
    }
    return { latencies, elapsedMs: performance.now() - started, cpuMs: null };
  };
}

export async function downloadScenario({ ours: oursModule, timing, wanted, progress }) {
  if (!wanted(ID)) return [];
  if (process.platform !== 'linux') return [{ id: ID, skipped: 'Linux only (curl and openssl on PATH)' }];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-download-')));
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const body = randomBytes(1024 * 1024);
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${server.address().port}`;
  try {
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'config.json'), {
      filesystem: { roots: [root], read: true, write: true },
      download: { enabled: true, testLoopbackOrigin: origin },
      audit: { enabled: false },
      undo: { enabled: false },
    });
    const { command, args } = oursModule.stdioCommand(configPath);
    const session = await startStdioClient('ours (fs.download)', command, args, REPO, { XDG_CONFIG_HOME: dir, NODE_EXTRA_CA_CERTS: cert });
    try {
      const call = { url: `${origin}/f.bin`, path: 'ours.bin', overwrite: true };
      await session.call('fs.download', call);
      progress(ID);
      const figures = await interleave({
        ours: sequentialRunner(session, 'fs.download', call, MAX_CALLS_PER_ROUND),
        baseline: curlRunner(`${origin}/f.bin`, cert, path.join(root, 'curl.bin')),
        ...timing,
      });
      return [
        {
          id: ID,
          tool: 'fs.download',
          transport: 'stdio',
          protocol: '2025-11-25 (v1 client)',
          concurrency: 1,
          baselineName: 'curl -o (a new process per call)',
          goal: NO_GOAL,
          ...figures,
        },
      ];
    } finally {
      await session.close().catch(() => {});
    }
  } finally {
    server.closeAllConnections();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
