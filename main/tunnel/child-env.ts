/**
 * The tunnel client's whole environment, built from nothing: what the OS and a proxy need, the
 * tunnel's identity, the server's URL, and the token as a header *reference*. The runtime key is
 * here (the client's documented input) and nowhere else: never argv, never a file we write.
 */
import { formatHeaderSpec } from './header-spec.js';

/** Variables the child inherits when set: the OS essentials and the owner's proxy and CA settings. */
const INHERITED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  // Windows needs these to start a process and resolve the profile.
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'ComSpec',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  // Reaching api.openai.com from behind a corporate proxy or private CA.
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
] as const;

/** The variable holding `Bearer <token>`, which the header lists name by reference. */
export const AUTHORIZATION_VARIABLE = 'CHATGPT_MCP_TUNNEL_AUTHORIZATION';

export interface TunnelEnvInput {
  /** The supervisor's own environment, the source of the inherited variables. */
  base: NodeJS.ProcessEnv;
  tunnelId: string;
  apiKey: string;
  /** The running server's /mcp URL on loopback. */
  serverUrl: string;
  /** The server's bearer token, or null when the server accepts none. */
  token: string | null;
  /** `127.0.0.1:0`: the client binds a free loopback port and writes its URL to `healthUrlFile`. */
  healthListenAddr: string;
  healthUrlFile: string;
}

export function buildTunnelEnv(input: TunnelEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = input.base[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  Object.assign(env, {
    CONTROL_PLANE_TUNNEL_ID: input.tunnelId,
    CONTROL_PLANE_API_KEY: input.apiKey,
    MCP_SERVER_URL: input.serverUrl,
    HEALTH_LISTEN_ADDR: input.healthListenAddr,
    HEALTH_URL_FILE: input.healthUrlFile,
    // One JSON object per line on stdout: the supervisor reads poll failures from it.
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
  });
  if (input.token) {
    env[AUTHORIZATION_VARIABLE] = `Bearer ${input.token}`;
    const spec = formatHeaderSpec([{ name: 'Authorization', value: `env:${AUTHORIZATION_VARIABLE}` }]);
    // Discovery and the startup probe get it too, so the client's own checks see our real answer.
    env.MCP_EXTRA_HEADERS = spec;
    env.MCP_DISCOVERY_EXTRA_HEADERS = spec;
  }
  return env;
}

/** The secrets in a built environment, for redaction. */
export function secretsOf(env: Record<string, string>): string[] {
  return [env.CONTROL_PLANE_API_KEY, env[AUTHORIZATION_VARIABLE], env[AUTHORIZATION_VARIABLE]?.replace(/^Bearer /, '')].filter((value): value is string =>
    Boolean(value),
  );
}
