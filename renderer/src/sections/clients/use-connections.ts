/**
 * The OAuth clients and waiting consent requests, kept fresh for the settings window: loaded
 * once, then pushed by the main process whenever the state file changes. Requests past their
 * deadline drop out by themselves (the server denies them then).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ConnectionsSnapshot, SettingsBridge } from '../../../../main/tray/bridge-api';

const EMPTY: ConnectionsSnapshot = { clients: [], pending: [] };

export interface Connections {
  snapshot: ConnectionsSnapshot;
  /** The countdowns' clock: ticks each second while a request waits. */
  now: number;
  reload(): Promise<void>;
}

export function useConnections(bridge: SettingsBridge): Connections {
  const [snapshot, setSnapshot] = useState<ConnectionsSnapshot>(EMPTY);
  const [now, setNow] = useState(() => Date.now());
  const reload = useCallback(async () => setSnapshot(await bridge.listConnections()), [bridge]);

  useEffect(() => {
    let alive = true;
    void bridge.listConnections().then((loaded) => alive && setSnapshot(loaded));
    const off = bridge.onConnections(setSnapshot);
    return () => {
      alive = false;
      off();
    };
  }, [bridge]);

  // A clock for the countdowns, only while something is waiting.
  const waiting = snapshot.pending.length > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);

  const pending = snapshot.pending.filter((p) => Date.parse(p.expiresAt) > now);
  return { snapshot: pending.length === snapshot.pending.length ? snapshot : { ...snapshot, pending }, now, reload };
}
