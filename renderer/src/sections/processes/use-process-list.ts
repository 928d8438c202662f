/**
 * The process panel's list for the typed filter: loaded at once and whenever the server (and so
 * the granted switches) changes; typing waits for Refresh or Enter.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ProcessListResult, ServerStatus, SettingsBridge } from '../../../../main/tray/bridge-api';

export function useProcessList(bridge: SettingsBridge, serverState: ServerStatus['state']) {
  const [filter, setFilter] = useState('');
  const [result, setResult] = useState<ProcessListResult | null>(null);
  const [loading, setLoading] = useState(false);

  const refresh = useCallback(async () => {
    setLoading(true);
    try {
      setResult(await bridge.listProcesses(filter.trim() || undefined));
    } finally {
      setLoading(false);
    }
  }, [bridge, filter]);

  useEffect(() => {
    void refresh();
    // Refresh when the server (and so the granted switches) changes; typing uses the button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverState]);

  return { filter, setFilter, result, loading, refresh };
}
