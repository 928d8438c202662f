import { describe, expect, it } from 'vitest';
import { isRestartPending } from '../../main/tray/restart-pending.js';
import { configSchema } from '../../main/config/schema.js';

const running = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 3, auth: true } as const;
const base = configSchema.parse({});

describe('isRestartPending', () => {
  it('is pending when the saved file differs from the running config, running or paused', () => {
    const saved = configSchema.parse({ shell: { enabled: true, allowedCommands: ['git'] } });
    expect(isRestartPending(running, base, () => saved)).toBe(true);
    expect(isRestartPending({ state: 'paused', url: running.url }, base, () => saved)).toBe(true);
    expect(isRestartPending(running, base, () => configSchema.parse({}))).toBe(false);
  });

  it('is not pending without a running server, or when the file cannot be loaded', () => {
    const saved = () => configSchema.parse({ process: { list: true } });
    expect(isRestartPending({ state: 'stopped' }, base, saved)).toBe(false);
    expect(isRestartPending({ state: 'error', message: 'x', field: null }, base, saved)).toBe(false);
    expect(isRestartPending(running, null, saved)).toBe(false);
    expect(
      isRestartPending(running, base, () => {
        throw new Error('invalid file');
      }),
    ).toBe(false);
  });
});
