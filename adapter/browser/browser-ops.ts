/** Opening a URL in the default browser behind the seam; the URL policy has decided already. */
export interface BrowserOps {
  /** An http(s) URL the URL policy normalized; refused otherwise even here. */
  openUrl(url: string): Promise<void>;
}
