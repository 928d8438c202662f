/**
 * The token in use, read from the main process (the running server's, else the one its next
 * start reads), read again after every server status change: a restart may bring a new one.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ServerStatus, SettingsBridge, TokenInUse } from '../../../../main/tray/bridge-api';

export function useTokenInUse(bridge: SettingsBridge, status: ServerStatus): { info: TokenInUse | null; reload(): Promise<void> } {
  const [info, setInfo] = useState<TokenInUse | null>(null);
  const reload = useCallback(async () => {
    try {
      setInfo(await bridge.tokenInUse());
    } catch (error) {
      setInfo({ token: null, source: null, where: `Could not read the token in use (${(error as Error).message}).` });
    }
  }, [bridge]);
  useEffect(() => {
    void reload();
  }, [reload, status.state]);
  return { info, reload };
}
