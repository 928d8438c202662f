/**
 * The tunnel as this page sees it: the controller's snapshot (pushed as it changes) and the
 * lookup of the tunnel client program, done again whenever its configured path changes.
 */
import { useCallback, useEffect, useState } from 'react';
import type { TunnelClientLookup, TunnelSnapshot } from '../../../../main/tunnel/status';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';

export function useTunnel(bridge: SettingsBridge, clientPath: string) {
  const [snapshot, setSnapshot] = useState<TunnelSnapshot | null>(null);
  const [lookup, setLookup] = useState<TunnelClientLookup | null>(null);

  useEffect(() => {
    let alive = true;
    void bridge.tunnelStatus().then((s) => alive && setSnapshot(s));
    const off = bridge.onTunnel((s) => setSnapshot(s));
    return () => {
      alive = false;
      off();
    };
  }, [bridge]);

  const check = useCallback(
    async (path: string) => {
      setLookup(null);
      setLookup(await bridge.tunnelLookUp(path || undefined));
    },
    [bridge],
  );
  useEffect(() => {
    void check(clientPath);
  }, [check, clientPath]);

  return { snapshot, setSnapshot, lookup, setLookup, check };
}
