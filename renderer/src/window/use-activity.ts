/** The recent tool calls, loaded once and then pushed as calls start and finish (the newest 200). */
import { useEffect, useState } from 'react';
import type { ActivityEntry, SettingsBridge } from '../../../main/tray/bridge-api';

const ACTIVITY_LIMIT = 200;

export function useActivity(bridge: SettingsBridge): ActivityEntry[] {
  const [activity, setActivity] = useState<ActivityEntry[]>([]);
  useEffect(() => {
    let alive = true;
    void bridge.listActivity().then((entries) => alive && setActivity(entries));
    const off = bridge.onActivity((entry) =>
      setActivity((list) => {
        // A call that finished replaces its "running" entry.
        const index = list.findIndex((e) => e.seq === entry.seq);
        if (index >= 0) return list.map((e, i) => (i === index ? entry : e));
        return [...list, entry].slice(-ACTIVITY_LIMIT);
      }),
    );
    return () => {
      alive = false;
      off();
    };
  }, [bridge]);
  return activity;
}
