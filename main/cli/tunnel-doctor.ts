/**
 * `chatgpt-mcp tunnel doctor`: every part the tunnel needs, each PASS or FAIL only when it was
 * actually checked. What cannot be checked from here is UNKNOWN (whether a program that answers
 * like the tunnel client is OpenAI's build, whether OpenAI accepts the key), never PASS. Then a
 * server of this config on a free port answers through the tunnel's headers, and the client's
 * own doctor runs against it; its verdict is read from its RESULT line, not its exit status
 * alone (/bin/true exits 0 having checked nothing).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { acceptsBearer, ensureBearerToken } from '../config/token.js';
import { cliHint } from '../command-name.js';
import { buildTunnelEnv, secretsOf } from '../tunnel/child-env.js';
import { redactLine } from '../tunnel/log-tail.js';
import { checkServerThroughTunnelHeaders } from '../tunnel/readiness.js';
import { keyShapeDoubt, normalizeRuntimeKey, type SecretStore } from '../tunnel/secret-store.js';
import { chooseRuntimeKey, chooseTunnelId, lookUpClient, type ClientSearch } from '../tunnel/setup.js';
import { cliWords } from '../tunnel/wording.js';
import { EXIT } from './io.js';
import { openOrExit } from './serve.js';
import { stateDir } from '../host/places.js';

export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'UNKNOWN';

export interface DoctorInputs {
  tunnelIdFlag: string | undefined;
  stores: SecretStore[];
  search: ClientSearch;
}

export async function doctor(loaded: LoadedConfig, inputs: DoctorInputs): Promise<number> {
  const { config, file } = loaded;
  const words = cliWords();
  let failed = false;
  const report = (verdict: Verdict, text: string) => {
    if (verdict === 'FAIL') failed = true;
    process.stdout.write(`${verdict} ${text}\n`);
  };
  report('PASS', `config ${file ?? '(defaults)'} is valid`);
  const tunnelId = chooseTunnelId(config, inputs.tunnelIdFlag, process.env, words);
  report(tunnelId.ok ? 'PASS' : 'FAIL', tunnelId.ok ? `tunnel id ${tunnelId.tunnelId} (from ${tunnelId.source})` : tunnelId.error);
  const key = await chooseRuntimeKey(inputs.stores, process.env, words);
  if (!key.ok) report('FAIL', key.error);
  else {
    const shape = keyShape(key.key);
    report(shape.verdict, `runtime key found in ${key.source}${shape.text}`);
    if (key.warning) report('WARN', key.warning);
  }
  const client = await lookUpClient({ ...inputs.search, words });
  if (!client.ok) report('FAIL', client.error);
  else {
    report('PASS', `tunnel client ${client.client.path} answers --version as OpenAI's tunnel-client does: ${client.client.version}`);
    if (client.client.source !== 'app-data')
      report('UNKNOWN', `whether ${client.client.path} is OpenAI's own build: only ${cliHint('tunnel download')} verifies the file (by the release's SHA-256)`);
  }
  if (!acceptsBearer(config))
    report(
      config.server.auth === 'none' ? 'WARN' : 'FAIL',
      `server.auth is "${config.server.auth}": the tunnel sends no bearer token${config.server.auth === 'oauth' ? ', so the server will refuse it; use "bearer+oauth"' : ''}`,
    );

  // A server of this config on a free port, checked through the very headers the tunnel would send.
  const probeConfig = { ...config, server: { ...config.server, port: 0 } };
  const server = await openOrExit({ ...loaded, config: probeConfig }, { transport: 'http', extraSecrets: key.ok ? [key.key] : [] });
  if (typeof server === 'number') return server;
  try {
    const token = acceptsBearer(config) ? ((await ensureBearerToken(config, stateDir()))?.token ?? null) : null;
    const env = buildTunnelEnv({
      base: process.env,
      tunnelId: tunnelId.ok ? tunnelId.tunnelId : (inputs.tunnelIdFlag ?? config.tunnel.tunnelId ?? ''),
      apiKey: key.ok ? key.key : '',
      serverUrl: server.url!,
      token,
      healthListenAddr: '127.0.0.1:0',
      healthUrlFile: path.join(stateDir(), 'tunnel-doctor-health-url'),
    });
    if (!key.ok) delete env.CONTROL_PLANE_API_KEY;
    const check = await checkServerThroughTunnelHeaders(server.url!, env);
    report(
      check.ok ? 'PASS' : 'FAIL',
      check.ok ? `the server answers discover and tools/list through the tunnel's headers (${check.toolCount} tools)` : check.reason,
    );
    if (client.ok) {
      const { code, output } = await runClientDoctor(client.client.path, env);
      const secrets = secretsOf(env);
      for (const line of output.split(/\r?\n/).filter((l) => l.trim())) process.stdout.write(`  tunnel-client doctor: ${redactLine(line, secrets)}\n`);
      const verdict = clientDoctorVerdict(code, output, config.server.auth === 'bearer');
      report(verdict.verdict, verdict.text);
    }
  } finally {
    await server.close();
  }
  report('UNKNOWN', `whether OpenAI accepts this key for this tunnel: only a running tunnel shows that (${cliHint('tunnel start')})`);
  return failed ? 1 : EXIT.ok;
}

/** The key's form: refused by the client's own rule, or in doubt when it does not look like an OpenAI key. */
function keyShape(key: string): { verdict: Verdict; text: string } {
  try {
    normalizeRuntimeKey(key);
  } catch (error) {
    return { verdict: 'FAIL', text: `, but ${(error as Error).message.replace(/^That/, 'it')}` };
  }
  const doubt = keyShapeDoubt(key);
  return doubt ? { verdict: 'UNKNOWN', text: `, but it may not be an OpenAI API key: ${doubt}` } : { verdict: 'PASS', text: ', shaped like an OpenAI API key' };
}

/**
 * The client's doctor ends with "RESULT ok" or "RESULT fail" and "FAILED_CHECKS a,b" (exit 2).
 * Without a RESULT line nothing was checked that we can tell. With a bearer token and no OAuth
 * the server serves no OAuth metadata, so the client's oauth_metadata check cannot pass there.
 */
export function clientDoctorVerdict(code: number, output: string, bearerOnly: boolean): { verdict: Verdict; text: string } {
  const result = /^RESULT (ok|fail)\s*$/m.exec(output)?.[1];
  if (!result) {
    return code === 0
      ? {
          verdict: 'UNKNOWN',
          text: `tunnel-client doctor exited with 0 but reported no RESULT: it checked nothing we can tell (is it OpenAI's tunnel-client?)`,
        }
      : { verdict: 'FAIL', text: `tunnel-client doctor exited with ${code} and reported no RESULT` };
  }
  if (result === 'ok') return { verdict: 'PASS', text: 'tunnel-client doctor: RESULT ok' };
  const failedChecks = (/^FAILED_CHECKS (\S+)/m.exec(output)?.[1] ?? '').split(',').filter(Boolean);
  if (bearerOnly && failedChecks.length === 1 && failedChecks[0] === 'oauth_metadata') {
    return {
      verdict: 'WARN',
      text: 'tunnel-client doctor failed only oauth_metadata: this server takes a bearer token, not OAuth, so it serves no OAuth metadata (the tunnel sends the token instead)',
    };
  }
  return { verdict: 'FAIL', text: `tunnel-client doctor: RESULT fail (${failedChecks.join(', ') || `exit ${code}`})` };
}

function runClientDoctor(file: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, ['doctor'], { env, timeout: 60_000, maxBuffer: 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code as number) : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}
