/** What is at each shared folder's path, asked of the main process whenever the list changes. */
import { useEffect, useState } from 'react';
import type { FolderKind, SettingsBridge } from '../../../../main/tray/bridge-api';

export function useFolderKinds(bridge: SettingsBridge, roots: readonly { path: string }[]): Map<string, FolderKind> {
  const [kinds, setKinds] = useState<Map<string, FolderKind>>(new Map());
  const key = roots.map((r) => r.path).join('\n');
  useEffect(() => {
    const paths = key ? key.split('\n') : [];
    if (!paths.length) return;
    let alive = true;
    // Only a warning: when the answer does not come, the page shows none.
    bridge.folderKinds(paths).then(
      (answer) => {
        if (alive) setKinds(new Map(paths.map((p, i) => [p, answer[i] ?? 'directory'])));
      },
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [bridge, key]);
  return kinds;
}
