/** Asks a server of ours (by its /mcp URL) whether it can answer a tool call: its /readyz. */
export type Readiness = { ready: true } | { ready: false; status: string };

export async function serverReadiness(mcpUrl: string, timeoutMs = 2000): Promise<Readiness> {
  const url = new URL(mcpUrl);
  url.pathname = '/readyz';
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json().catch(() => ({}))) as { status?: unknown };
    if (response.status === 200) return { ready: true };
    return { ready: false, status: typeof body.status === 'string' ? body.status : `HTTP ${response.status}` };
  } catch (error) {
    return { ready: false, status: `no answer (${(error as Error).name})` };
  }
}
