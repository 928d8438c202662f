/** The change groups the journal holds, reloaded when asked and whenever a tool call ends. */
import { useCallback, useEffect, useState } from 'react';
import type { SettingsBridge, UndoList } from '../../../../main/tray/bridge-api';

export function useUndo(bridge: SettingsBridge, callsEnded: number): { list: UndoList | null; reload(): Promise<void> } {
  const [list, setList] = useState<UndoList | null>(null);
  const reload = useCallback(async () => setList(await bridge.listChanges()), [bridge]);
  useEffect(() => void reload(), [reload, callsEnded]);
  return { list, reload };
}
