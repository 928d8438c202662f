/**
 * Which IPC messages are trusted: only those from the settings window's own webContents, from
 * its main frame, while it shows the page we loaded. A navigated, embedded or foreign frame is
 * refused even if it somehow reached the preload.
 */
export interface SenderInfo {
  webContentsId: number;
  /** The URL of the frame that sent the message, or null when it is gone. */
  frameUrl: string | null;
  isMainFrame: boolean;
}

export interface ExpectedSender {
  webContentsId: number;
  /** The page the window loaded (file:// in production, the dev server URL in development). */
  url: string;
}

export function isTrustedSender(sender: SenderInfo, expected: ExpectedSender | null): boolean {
  if (!expected || sender.webContentsId !== expected.webContentsId || !sender.isMainFrame || !sender.frameUrl) return false;
  return samePage(sender.frameUrl, expected.url);
}

/** Same document: scheme, host, port and path equal; query and fragment are ignored. */
function samePage(actual: string, expected: string): boolean {
  try {
    const a = new URL(actual);
    const b = new URL(expected);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}
