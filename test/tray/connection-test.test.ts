import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { testConnection } from '../../main/tray/connection-test.js';
import { configSchema } from '../../main/config/schema.js';
import { silentLogger } from '../../main/log.js';
import { startHttpServer, type RunningHttpServer } from '../../main/mcp/http.js';
import { createServerFactory, enabledTools } from '../../main/mcp/server.js';

const TOKEN = 'connection-test-token-abcdefghij';

describe('testConnection (a real 2026-07-28 client against the real server)', () => {
  let open: RunningHttpServer;
  let locked: RunningHttpServer;
  let expectedTools: number;

  beforeAll(async () => {
    const adapter = createLocalAdapter();
    const openConfig = configSchema.parse({ server: { port: 0, auth: 'none' }, process: { list: true } });
    expectedTools = enabledTools(openConfig).length;
    open = await startHttpServer({
      config: openConfig,
      logger: silentLogger,
      factory: createServerFactory({ config: openConfig, adapter, logger: silentLogger }),
    });
    const lockedConfig = configSchema.parse({ server: { port: 0, token: TOKEN } });
    locked = await startHttpServer({
      config: lockedConfig,
      logger: silentLogger,
      factory: createServerFactory({ config: lockedConfig, adapter, logger: silentLogger }),
    });
  });

  afterAll(async () => {
    await open?.close();
    await locked?.close();
  });

  it('reports the tool count and names', async () => {
    const result = await testConnection({ url: open.url });
    expect(result).toMatchObject({ ok: true, url: open.url, toolCount: expectedTools });
    if (result.ok) {
      expect(result.tools).toContain('system_info');
      expect(result.tools).toContain('process_list');
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('passes the bearer token, and explains a refused one without echoing it', async () => {
    expect((await testConnection({ url: locked.url, token: TOKEN })).ok).toBe(true);
    const wrong = await testConnection({ url: locked.url, token: `${TOKEN}-wrong` });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.error).toContain('401');
      expect(wrong.error).not.toContain(TOKEN);
    }
    expect(await testConnection({ url: locked.url })).toMatchObject({ ok: false, error: expect.stringContaining('401') });
  });

  it('says when nothing listens', async () => {
    const port = Number(new URL(open.url).port);
    const spare = await startHttpServer({
      config: configSchema.parse({ server: { port: 0, auth: 'none' } }),
      logger: silentLogger,
      factory: createServerFactory({ config: configSchema.parse({}), adapter: createLocalAdapter(), logger: silentLogger }),
    });
    const url = spare.url;
    await spare.close();
    expect(port).toBeGreaterThan(0);
    expect(await testConnection({ url, timeoutMs: 2000 })).toMatchObject({ ok: false, error: expect.stringContaining('Connection refused') });
  });
});
