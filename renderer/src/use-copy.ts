/**
 * Copying through the bridge (the main process owns the clipboard), with a short-lived
 * "Copied" for the one thing copied last.
 */
import { useState } from 'react';
import type { SettingsBridge } from '../../main/tray/bridge-api';

export interface Copier {
  /** What was copied last, for as long as its "Copied" shows. */
  copied: string | null;
  copy(what: string, text: string): Promise<void>;
}

export function useCopy(bridge: SettingsBridge): Copier {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (what: string, text: string) => {
    await bridge.copyText(text);
    setCopied(what);
    window.setTimeout(() => setCopied((c) => (c === what ? null : c)), 1600);
  };
  return { copied, copy };
}
