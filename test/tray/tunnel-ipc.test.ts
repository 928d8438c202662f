import { describe, expect, it } from 'vitest';
import type { TunnelController } from '../../main/tunnel/tunnel-controller.js';
import { tunnelHandlers } from '../../main/tray/tunnel-ipc.js';
import { LINKS } from '../../main/tunnel/status.js';

/** Only what the ChatGPT page's calls reach of the controller: which paths were looked up (looking up runs the file). */
function setup(saved?: string, pickedFile: string | null = null) {
  const lookedUp: Array<string | undefined> = [];
  const opened: string[] = [];
  const tunnel = { lookUp: async (clientPath?: string) => (lookedUp.push(clientPath), { ok: true, path: clientPath }) } as unknown as TunnelController;
  const handlers = tunnelHandlers({
    tunnel,
    savedClientPath: () => saved,
    pickFile: async () => pickedFile,
    openExternal: async (url) => void opened.push(url),
  });
  return { handlers, lookedUp, opened };
}

describe("the ChatGPT page's tunnel calls", () => {
  it('never runs a typed path: only the saved one or one picked in the dialog', async () => {
    const { handlers, lookedUp } = setup('/opt/saved/tunnel-client', '/home/me/picked/tunnel-client');
    const typed = (await handlers['tunnel:look-up']('/tmp/evil')) as { ok: boolean; error: string };
    expect(typed).toMatchObject({ ok: false, searched: ['/tmp/evil'] });
    expect(typed.error).toContain('Save the settings');
    expect(lookedUp).toEqual([]);

    await handlers['tunnel:look-up']('/opt/saved/tunnel-client');
    expect(await handlers['tunnel:pick-client']()).toBe('/home/me/picked/tunnel-client');
    await handlers['tunnel:look-up']('/home/me/picked/tunnel-client');
    await handlers['tunnel:look-up']();
    expect(lookedUp).toEqual(['/opt/saved/tunnel-client', '/home/me/picked/tunnel-client', undefined]);
  });

  it('a cancelled dialog admits nothing', async () => {
    const { handlers, lookedUp } = setup(undefined, null);
    expect(await handlers['tunnel:pick-client']()).toBeNull();
    expect(await handlers['tunnel:look-up']('null')).toMatchObject({ ok: false });
    expect(lookedUp).toEqual([]);
  });

  it('opens only the links it knows', async () => {
    const { handlers, opened } = setup();
    const [id, url] = Object.entries(LINKS)[0]!;
    await handlers['tunnel:open-link'](id as keyof typeof LINKS);
    expect(opened).toEqual([url]);
  });
});
