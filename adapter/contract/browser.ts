/**
 * Opening a URL in the default browser behind the seam; the URL policy has decided already.
 *
 * For an adapter author: hand the URL to the default browser of the computer you act on,
 * without a shell.
 */
export interface BrowserOps {
  /** An http(s) URL the URL policy normalized; refused otherwise even here. */
  openUrl(url: string): Promise<void>;
}
