/**
 * The audit log, searchable: every call any entry point recorded (main/audit/), redacted as the
 * list above. The terms are the CLI's (`chatgpt-mcp audit search`); the main process answers.
 */
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { Icon } from '../../components/Icon';
import { AuditTable } from './AuditTable';
import { useAuditSearch } from './use-audit-search';

export function AuditLogCard({ bridge }: { bridge: SettingsBridge }) {
  const { terms, setTerms, result, loading, search } = useAuditSearch(bridge);
  return (
    <Card
      title="Audit log"
      description="Every call, from every client, kept on disk in the app folder (rotated by size). Contents, output and secrets are never recorded."
      actions={
        <button type="button" className="button" onClick={() => void search()} disabled={loading}>
          <Icon name="refresh" size={15} />
          {loading ? 'Searching…' : 'Search'}
        </button>
      }
    >
      <form
        className="filter-row"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <label htmlFor="audit-terms">Search</label>
        <input
          id="audit-terms"
          className="input"
          value={terms}
          placeholder="words, tool=fs_read, client=chatgpt, outcome=PATH_NOT_ALLOWED, since=2026-12-01"
          onChange={(event) => setTerms(event.target.value)}
        />
      </form>
      {result === null ? (
        <p className="empty">Loading…</p>
      ) : !result.ok ? (
        <p className="empty" role="alert">
          {result.error}
        </p>
      ) : result.rows.length === 0 ? (
        <p className="empty">No recorded call matches.</p>
      ) : (
        <>
          <p className="hint">
            The newest {result.rows.length === result.limit ? `${result.limit} matches` : `${result.rows.length} match(es)`}, newest first, from{' '}
            <span className="mono">{result.folder}</span>.
          </p>
          <AuditTable rows={result.rows} />
        </>
      )}
    </Card>
  );
}
