/** The upstreams' live status for the Gateway page, read when it opens and every few seconds while it is open. */
import { useCallback, useEffect, useState } from 'react';
import type { GatewaySnapshot, SettingsBridge } from '../../../../main/tray/bridge-api';

const EVERY_MS = 4000;

export function useGatewayStatus(bridge: SettingsBridge): { snapshot: GatewaySnapshot | null; reload(): void } {
  const [snapshot, setSnapshot] = useState<GatewaySnapshot | null>(null);
  const reload = useCallback(() => {
    void bridge.gatewayStatus().then(setSnapshot, () => setSnapshot(null));
  }, [bridge]);
  useEffect(() => {
    reload();
    const timer = setInterval(reload, EVERY_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return { snapshot, reload };
}
