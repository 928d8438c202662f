/** The audit list's search: loaded at once with no terms (the newest calls), then on Search or Enter. */
import { useCallback, useEffect, useState } from 'react';
import type { AuditSearchResult, SettingsBridge } from '../../../../main/tray/bridge-api';

export function useAuditSearch(bridge: SettingsBridge) {
  const [terms, setTerms] = useState('');
  const [result, setResult] = useState<AuditSearchResult | null>(null);
  const [loading, setLoading] = useState(false);

  const search = useCallback(async () => {
    setLoading(true);
    try {
      setResult(await bridge.searchAudit(terms.trim()));
    } catch (error) {
      setResult({ ok: false, error: error instanceof Error ? error.message : String(error) });
    } finally {
      setLoading(false);
    }
  }, [bridge, terms]);

  useEffect(() => {
    void search();
    // Loaded once when the page opens; typing waits for Search or Enter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { terms, setTerms, result, loading, search };
}
