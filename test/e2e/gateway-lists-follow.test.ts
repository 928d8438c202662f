/**
 * A stdio host stays connected while an upstream's resources and prompts change (it restarted
 * after a crash and now lists more): the host is told each list changed and lists the new ones,
 * as it is for tools; a new prompt once the owner accepted it, as a new tool. The upstream is the test fixture, its lists read from a file at each start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectStdioHost, FIXTURE, gatewayHome, nodeUpstream, type GatewayHome } from '../helpers/gateway.js';
import { runCli } from '../helpers/servers.js';

let home: GatewayHome;
let extras: string;
beforeAll(() => {
  home = gatewayHome();
  extras = path.join(home.data, 'extras.json');
  fs.writeFileSync(extras, JSON.stringify({ resources: ['first'], prompts: ['hello'] }));
  home.write({ gateway: { servers: [nodeUpstream('lists', FIXTURE, { folders: [home.data], env: { FIXTURE_EXTRAS: extras }, start: 'at-start' })] } });
});
afterAll(() => home?.remove());

describe('the gateway over stdio', () => {
  it("tells a connected host when an upstream's resources and prompts change, and lists the new ones", async () => {
    const host = await connectStdioHost(home);
    try {
      const resourcesTold = new Promise<void>((resolve) => host.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
      const promptsTold = new Promise<void>((resolve) => host.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
      expect((await host.listResources()).resources.map((r) => r.uri)).toEqual(['fixture://first']);
      expect((await host.listPrompts()).prompts.map((p) => p.name)).toEqual(['lists_hello']);
      // A model that writes the tool's name with a dot (as the built-in tools' docs do) is told the name to use.
      const dotted = await host.callTool({ name: 'lists.noop', arguments: {} });
      expect(dotted.isError).toBe(true);
      expect((dotted.content as Array<{ text: string }>)[0]!.text).toContain('it is named lists_noop here');

      fs.writeFileSync(extras, JSON.stringify({ resources: ['first', 'second'], prompts: ['hello', 'bye'] }));
      const crashed = await host.callTool({ name: 'lists_crash', arguments: {} });
      expect(crashed.isError).toBe(true);
      // The next call starts it again (after its backoff), and it lists the new file's names.
      await expect
        .poll(async () => (await host.callTool({ name: 'lists_noop', arguments: {} })).isError ?? false, { timeout: 15_000, interval: 300 })
        .toBe(false);
      await resourcesTold;
      await expect
        .poll(async () => (await host.listResources()).resources.map((r) => r.uri).sort(), { timeout: 5_000 })
        .toEqual(['fixture://first', 'fixture://second']);
      expect((await host.readResource({ uri: 'fixture://second' })).contents).toEqual([{ uri: 'fixture://second', text: 'resource second' }]);
      // A new prompt is held, as a new tool is, until the owner accepts it (here with the CLI, another process).
      expect((await host.listPrompts()).prompts.map((p) => p.name)).toEqual(['lists_hello']);
      const accepted = await runCli(['gateway', 'accept', 'lists', '--config', home.configFile], home.env, 30_000);
      expect(accepted.stdout).toContain('+  "name": "bye"');
      expect(accepted.stderr).toContain('accepted prompt "bye"');
      await promptsTold;
      await expect.poll(async () => (await host.listPrompts()).prompts.map((p) => p.name).sort(), { timeout: 5_000 }).toEqual(['lists_bye', 'lists_hello']);
    } finally {
      await host.close();
    }
  }, 60_000);
});
