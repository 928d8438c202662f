/**
 * The ChatGPT page's calls: the tunnel controller's actions, and the rule that a tunnel-client
 * path is only run (looked up, which runs --version) when it is saved or the owner picked it in
 * the native dialog this session.
 */
import type { TunnelController } from '../tunnel/tunnel-controller.js';
import { LINKS, type LinkId } from '../tunnel/status.js';
import type { InvokeHandlers } from './ipc.js';

type TunnelChannel = Extract<keyof InvokeHandlers, `tunnel:${string}`>;

export interface TunnelIpcDeps {
  tunnel: TunnelController;
  /** tunnel.clientPath of the saved config. */
  savedClientPath(): string | undefined;
  /** A file from the native dialog, or null when cancelled. */
  pickFile(title: string): Promise<string | null>;
  openExternal(url: string): Promise<void>;
}

export function tunnelHandlers({ tunnel, savedClientPath, pickFile, openExternal }: TunnelIpcDeps): Pick<InvokeHandlers, TunnelChannel> {
  /** Client files the owner chose in the native dialog this session. */
  const picked = new Set<string>();
  return {
    'tunnel:status': async () => {
      await tunnel.refreshKeyInfo();
      return tunnel.snapshot;
    },
    'tunnel:connect': () => tunnel.connect(),
    'tunnel:disconnect': () => tunnel.disconnect(),
    'tunnel:set-key': (key) => tunnel.setKey(key),
    'tunnel:forget-key': () => tunnel.forgetKey(),
    'tunnel:look-up': (clientPath?: string) => {
      if (clientPath && !picked.has(clientPath) && clientPath !== savedClientPath()) {
        return { ok: false, error: 'Save the settings (or use Choose file…) to check a path typed here.', searched: [clientPath] };
      }
      return tunnel.lookUp(clientPath);
    },
    'tunnel:pick-client': async () => {
      const file = await pickFile('Choose the tunnel-client program');
      if (file) picked.add(file);
      return file;
    },
    'tunnel:download': () => tunnel.download(),
    'tunnel:open-link': (link: LinkId) => openExternal(LINKS[link]),
  };
}
