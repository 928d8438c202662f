/** Written-down machines for sandbox plans: a Linux desktop user's home, and how a test builds the policy over one. */
import type { SandboxEntry, SandboxPlan, SandboxSupport } from '../../adapter/contract/sandbox.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { SandboxPolicy } from '../../main/policy/sandbox.js';
import { makeConfig } from './servers.js';
import { treePort, type Tree, type TreePort } from './tree-port.js';

/** A bubblewrap plan of `entries` alone, as the mechanism's own tests build them. */
export function bubblewrapPlan(entries: SandboxEntry[]): SandboxPlan {
  return {
    mechanism: 'bubblewrap',
    program: '/usr/bin/bwrap',
    userNamespace: true,
    mode: 'workspace',
    network: 'off',
    display: false,
    entries,
    tempDir: '/tmp',
  };
}

export const BWRAP: SandboxSupport = { mechanism: 'bubblewrap', usable: true, program: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0', userNamespace: true };

/** A Linux desktop user's machine: alex's home with secrets, a project with a vendored read-only part, bob's home. */
export const LINUX_TREE: Tree = {
  '/tmp': 'dir',
  '/var/tmp': 'dir',
  '/run/user/1000': 'dir',
  '/run/systemd/resolve/stub-resolv.conf': 'file',
  '/etc/resolv.conf': '-> /run/systemd/resolve/stub-resolv.conf',
  '/etc/shadow': 'file',
  '/etc/ssh/ssh_host_ed25519_key': 'file',
  '/etc/ssh/ssh_host_ed25519_key.pub': 'file',
  '/etc/ssh/sshd_config': 'file',
  '/home/alex/.ssh/id_rsa': 'file',
  '/home/alex/.aws': '-> /home/alex/secrets/aws',
  '/home/alex/secrets/aws/credentials': 'file',
  '/home/alex/.netrc': 'file',
  '/home/alex/.mozilla': 'dir',
  '/home/alex/.config/chatgpt-mcp/token': 'file',
  '/home/alex/private': 'dir',
  '/home/alex/projects/vendor': 'dir',
  '/home/bob/shared': 'dir',
  '/root': 'dir',
  '/usr/bin/git': 'file',
};

export const LINUX_ENV = { HOME: '/home/alex', PATH: '/usr/bin:/bin', TMPDIR: '/tmp', XDG_RUNTIME_DIR: '/run/user/1000', DISPLAY: ':0' };
export const PROTECTED = ['/home/alex/.config/chatgpt-mcp/config.json', '/home/alex/.config/chatgpt-mcp', '/home/alex/.config/ChatGPT Computer MCP'];

export const LINUX_CONFIG: ConfigInput = {
  filesystem: {
    write: true,
    roots: ['/home/alex/projects', { path: '/home/alex/projects/vendor', readOnly: true }, { path: '/home/bob/shared', readOnly: true }],
    deny: ['/home/alex/private/**'],
  },
  shell: { enabled: true, allowedCommands: ['git'], sandbox: 'workspace' },
};

export function sandboxFor(
  input: ConfigInput,
  options: {
    platform?: 'linux' | 'darwin';
    tree?: Tree;
    env?: Record<string, string>;
    support?: SandboxSupport;
    protectedFiles?: string[];
    uid?: number;
    /** The filesystem to plan on, when the test changes it between plans (instead of tree, env, support, uid). */
    port?: TreePort;
  } = {},
) {
  const config = makeConfig(input);
  const port =
    options.port ??
    treePort({
      platform: options.platform ?? 'linux',
      tree: options.tree ?? LINUX_TREE,
      env: options.env ?? LINUX_ENV,
      support: options.support ?? BWRAP,
      uid: options.uid ?? 1000,
    });
  const files = new FilesystemPolicy(config.filesystem, port, { protectedFiles: options.protectedFiles ?? PROTECTED });
  return new SandboxPolicy(config, files, port);
}

/** git, run in alex's project. */
export const GIT_IN_PROJECT = { file: '/usr/bin/git', found: '/usr/bin/git', cwd: '/home/alex/projects' };
