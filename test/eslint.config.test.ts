/**
 * The layers' rules are checked, not only written: a forbidden import in each folder fails the
 * project's own eslint config with the rule's message, and an allowed one passes. The probes
 * are linted as files at real paths of the tree (nothing is written there).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: REPO });
});

/** The no-restricted-imports messages for `code` as if it were the file at `file`. */
async function bans(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('eslint keeps the layers apart', () => {
  it.each([
    ['main/policy/probe.ts', "import fs from 'node:fs';\nexport const x = fs;", /rule 9/],
    ['main/policy/probe.ts', "import { readFile } from 'fs/promises';\nexport const x = readFile;", /rule 9/],
    ['main/policy/probe.ts', "import { ALL_TOOLS } from '../mcp/tools/index.js';\nexport const x = ALL_TOOLS;", /rule 8/],
    ['main/mcp/tools/probe.ts', "import { spawn } from 'node:child_process';\nexport const x = spawn;", /rule 2/],
    ['main/mcp/tools/probe.ts', "import { openServer } from '../../host/server-host.js';\nexport const x = openServer;", /rule 2/],
    ['main/mcp/probe.ts', "import { app } from 'electron';\nexport const x = app;", /rule 3/],
    ['main/cli/probe.ts', "import { app } from 'electron';\nexport const x = app;", /rule 3/],
    ['main/host/probe.ts', "import { TrayController } from '../tray/tray.js';\nexport const x = TrayController;", /rule 3/],
    ['adapter/fs/probe.ts', "import { McpServer } from '@modelcontextprotocol/server';\nexport const x = McpServer;", /rule 1/],
    ['adapter/fs/probe.ts', "import { FilesystemPolicy } from '../../main/policy/filesystem.js';\nexport const x = FilesystemPolicy;", /rule 1/],
    ['adapter/fs/probe.ts', "import * as z from 'zod';\nexport const x = z;", /rule 1/],
    ['renderer/src/probe.ts', "import fs from 'node:fs';\nexport const x = fs;", /rule 4/],
    [
      'main/mcp/tools/probe.ts',
      "import type { HandleStatus } from '../../../adapter/process/process-registry.js';\nexport type X = HandleStatus;",
      /rule 2: import the adapter's types/,
    ],
    [
      'main/policy/probe.ts',
      "import { localPolicyPort } from '../../adapter/local-policy-port.js';\nexport const x = localPolicyPort;",
      /rule 9: import the adapter's types/,
    ],
    ['adapter/contract/probe.ts', "import type { ProcessRegistry } from '../process/process-registry.js';\nexport type X = ProcessRegistry;", /rule 10/],
    ['adapter/contract/probe.ts', "import fs from 'node:fs';\nexport const x = fs;", /rule 10/],
  ])('%s: %s is refused', async (file, code, rule) => {
    const messages = await bans(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(rule);
  });

  it.each([
    ['main/policy/probe.ts', "import path from 'node:path';\nexport const x = path;"],
    ['main/tray/probe.ts', "import { app } from 'electron';\nexport const x = app;"],
    ['main/host/probe.ts', "import { createServerFactory } from '../mcp/server.js';\nexport const x = createServerFactory;"],
    ['adapter/fs/probe.ts', "import fs from 'node:fs';\nexport const x = fs;"],
    ['main/mcp/tools/probe.ts', "import type { HandleStatus } from '../../../adapter/contract/processes.js';\nexport type X = HandleStatus;"],
    ['adapter/contract/probe.ts', "import type { ScreenRect } from './geometry.js';\nexport type X = ScreenRect;"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await bans(file, code)).toEqual([]);
  });
});
