import { describe, expect, it } from 'vitest';
import { INVOKE, SEND } from '../../main/tray/ipc-channels.js';
import { invokePayloads, IpcPayloadError, parseInvokeArgs, parseSendArgs } from '../../main/tray/ipc-contract.js';
import { isTrustedSender } from '../../main/tray/sender-check.js';

describe('IPC payload validation', () => {
  it('every invoke channel has a schema', () => {
    expect(Object.keys(invokePayloads).sort()).toEqual(Object.values(INVOKE).sort());
  });

  it.each([
    [INVOKE.load, []],
    [INVOKE.save, [{ server: { port: 1 } }]],
    [INVOKE.copyText, ['http://127.0.0.1:3210/mcp']],
    [INVOKE.listProcesses, []],
    [INVOKE.listProcesses, ['node']],
    [INVOKE.killProcess, [1234, 'SIGTERM']],
    [INVOKE.killProcess, [1, 'SIGKILL']],
    [INVOKE.listConnections, []],
    [INVOKE.approveConnection, ['KD7F-M2QP']],
    [INVOKE.denyConnection, ['kd7fm2qp']],
    [INVOKE.revokeClient, ['https://app.example/client.json']],
    [INVOKE.tunnelSetKey, ['sk-runtime-key']],
    [INVOKE.tunnelLookUp, []],
    [INVOKE.tunnelLookUp, ['/opt/tunnel-client']],
    [INVOKE.openLink, ['connectors']],
    [INVOKE.listChanges, []],
    [INVOKE.showChanges, ['20260131-142501123-9f3a']],
    [INVOKE.undoChanges, ['20260131-142501123-9f3a']],
    [INVOKE.detectChecks, ['/home/me/projects']],
  ] as [string, unknown[]][])('%s accepts %j', (channel, args) => {
    expect(() => parseInvokeArgs(channel as never, args)).not.toThrow();
  });

  it.each([
    [INVOKE.load, [1]],
    [INVOKE.save, []],
    [INVOKE.save, ['{"server":{}}']],
    [INVOKE.save, [[1, 2]]],
    [INVOKE.save, [{}, {}]],
    [INVOKE.save, [{ big: 'x'.repeat(1024 * 1024) }]],
    [INVOKE.copyText, ['']],
    [INVOKE.copyText, ['x'.repeat(4097)]],
    [INVOKE.copyText, [42]],
    [INVOKE.listProcesses, [{ match: 'x' }]],
    [INVOKE.killProcess, [0, 'SIGTERM']],
    [INVOKE.approveConnection, []],
    [INVOKE.approveConnection, [42]],
    [INVOKE.approveConnection, ['x'.repeat(21)]],
    [INVOKE.revokeClient, ['']],
    [INVOKE.listConnections, ['extra']],
    [INVOKE.killProcess, [-1, 'SIGTERM']],
    [INVOKE.killProcess, [1.5, 'SIGTERM']],
    [INVOKE.killProcess, [2 ** 31, 'SIGTERM']],
    [INVOKE.killProcess, [12, 'SIGSTOP']],
    [INVOKE.killProcess, ['12', 'SIGTERM']],
    [INVOKE.pickFolder, ['/etc']],
    [INVOKE.tunnelSetKey, []],
    [INVOKE.tunnelSetKey, ['']],
    [INVOKE.tunnelSetKey, ['k'.repeat(1025)]],
    [INVOKE.tunnelConnect, ['tunnel_x']],
    [INVOKE.tunnelDownload, ['https://example.com/evil.zip']],
    [INVOKE.openLink, ['https://evil.example/']],
    [INVOKE.openLink, ['file:///etc/passwd']],
    [INVOKE.showChanges, ['../../etc/passwd']],
    [INVOKE.undoChanges, ['20260131-142501123-9f3a', 'extra']],
    [INVOKE.undoChanges, []],
    [INVOKE.detectChecks, ['']],
    ['settings:delete-everything', []],
  ] as [string, unknown[]][])('%s refuses %j', (channel, args) => {
    expect(() => parseInvokeArgs(channel as never, args)).toThrow(IpcPayloadError);
  });

  it('validates fire-and-forget messages too', () => {
    expect(parseSendArgs(SEND.setDirty, [true])).toEqual([true]);
    expect(() => parseSendArgs(SEND.setDirty, ['yes'])).toThrow(IpcPayloadError);
    expect(() => parseSendArgs(SEND.setDirty, [])).toThrow(IpcPayloadError);
  });
});

describe('isTrustedSender', () => {
  const expected = { webContentsId: 7, url: 'file:///opt/app/resources/app.asar/out/app/renderer/index.html' };
  it.each([
    [{ webContentsId: 7, frameUrl: expected.url, isMainFrame: true }, true],
    [{ webContentsId: 7, frameUrl: `${expected.url}#/files`, isMainFrame: true }, true],
    [{ webContentsId: 7, frameUrl: `${expected.url}?x=1`, isMainFrame: true }, true],
    [{ webContentsId: 8, frameUrl: expected.url, isMainFrame: true }, false],
    [{ webContentsId: 7, frameUrl: expected.url, isMainFrame: false }, false],
    [{ webContentsId: 7, frameUrl: null, isMainFrame: true }, false],
    [{ webContentsId: 7, frameUrl: 'file:///opt/app/evil.html', isMainFrame: true }, false],
    [{ webContentsId: 7, frameUrl: 'https://example.com/index.html', isMainFrame: true }, false],
    [{ webContentsId: 7, frameUrl: 'not a url', isMainFrame: true }, false],
  ])('%j -> %s', (sender, trusted) => {
    expect(isTrustedSender(sender, expected)).toBe(trusted);
  });

  it('refuses everything while no window is open', () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: expected.url, isMainFrame: true }, null)).toBe(false);
  });

  it('the dev server origin must match exactly', () => {
    const dev = { webContentsId: 1, url: 'http://localhost:5173/' };
    expect(isTrustedSender({ webContentsId: 1, frameUrl: 'http://localhost:5173/', isMainFrame: true }, dev)).toBe(true);
    expect(isTrustedSender({ webContentsId: 1, frameUrl: 'http://localhost:5174/', isMainFrame: true }, dev)).toBe(false);
  });
});
