/** shell.sandbox "private-home" on a written-down Linux machine: the home hidden but the roots, the toolchain folders and shell.homeVisible. */
import { describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { describeChoice, resolveSandbox } from '../../main/policy/sandbox-mode.js';
import { GIT_IN_PROJECT, LINUX_CONFIG, LINUX_TREE, sandboxFor } from '../helpers/sandbox-fixtures.js';

const TREE = { ...LINUX_TREE, '/home/alex/.cargo/bin/cargo': 'file', '/home/alex/.pyenv/shims/python3': 'file', '/home/alex/.gradle': 'dir' } as const;
const PRIVATE: ConfigInput = { ...LINUX_CONFIG, shell: { enabled: true, allowedCommands: ['git'] } };
const lines = async (config: ConfigInput, env?: Record<string, string>) =>
  (await sandboxFor(config, { tree: TREE, ...(env ? { env } : {}) }).plan(GIT_IN_PROJECT))!.entries.map((e) => `${e.access} ${e.path}`);

describe('the private-home sandbox', () => {
  it('is what "auto" means on Linux, and says so', () => {
    const choice = resolveSandbox({ sandbox: 'auto', network: 'auto' }, false, 'linux');
    expect(choice.mode).toBe('private-home');
    expect(describeChoice(choice, 'linux')).toContain(
      'Your home folder is hidden from commands, except the shared folders and the toolchain folders (~/.cargo, ~/.rustup, ~/.npm, ~/.nvm, ~/.pyenv, ~/.cache, ~/.local/bin, ~/.gitconfig, ~/.config/git, and shell.homeVisible).',
    );
  });

  it('hides the home, then brings back the toolchain folders that exist and the roots', async () => {
    const plan = await lines(PRIVATE);
    const home = plan.indexOf('hidden /home/alex');
    expect(home).toBeGreaterThanOrEqual(0);
    expect(plan.indexOf('read /home/alex/.cargo')).toBeGreaterThan(home);
    expect(plan.indexOf('read /home/alex/.pyenv')).toBeGreaterThan(home);
    expect(plan.indexOf('write /home/alex/projects')).toBeGreaterThan(home);
    expect(plan).not.toContain('read /home/alex');
    expect(plan).not.toContain('read /home/alex/.gradle');
    // What is not there is not mounted; a secret inside the hidden home needs no mount of its own.
    expect(plan.some((l) => l.endsWith('/.rustup'))).toBe(false);
    expect(plan.filter((l) => l.includes('/home/alex/.ssh'))).toEqual([]);
  });

  it('brings back what the owner adds', async () => {
    const plan = await lines({ ...PRIVATE, shell: { ...PRIVATE.shell, homeVisible: ['~/.gradle', '/home/bob/shared/x', '~/../bob', '/run/user'] } });
    expect(plan).toContain('read /home/alex/.gradle');
    // Only folders of the home.
    expect(plan.filter((l) => l.startsWith('read /home/bob') || l.startsWith('read /run'))).toEqual(['read /home/bob/shared']);
  });

  it('hides nothing more when a root holds the home, or HOME is /', async () => {
    const shared = await lines({ ...PRIVATE, filesystem: { ...PRIVATE.filesystem, roots: ['/home/alex'] } });
    expect(shared).not.toContain('hidden /home/alex');
    const slash = await lines(PRIVATE, { HOME: '/', PATH: '/usr/bin' });
    expect(slash).not.toContain('hidden /');
  });

  it('names the hidden home in system.info', () => {
    const summary = sandboxFor(PRIVATE, { tree: TREE }).describe();
    expect(summary.mode).toBe('private-home');
    expect(summary.hidden).toContain(
      'your home folder (~), except the shared folders, ~/.cargo, ~/.rustup, ~/.npm, ~/.nvm, ~/.pyenv, ~/.cache, ~/.local/bin, ~/.gitconfig, ~/.config/git',
    );
    expect(summary.writable).toContain('/home/alex/projects');
  });
});
