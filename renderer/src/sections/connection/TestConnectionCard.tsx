/** Test connection: connects to the running server as a remote client would, and says what it found. */
import { useState } from 'react';
import type { ConnectionTestResult, ServerStatus, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { Icon } from '../../components/Icon';
import { ResultBox } from '../../components/ResultBox';

export function TestConnectionCard({ status, bridge }: { status: ServerStatus; bridge: SettingsBridge }) {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const test = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(await bridge.testConnection());
    } catch (error) {
      setResult({ ok: false, url: null, error: error instanceof Error ? error.message : String(error) });
    } finally {
      setTesting(false);
    }
  };
  return (
    <Card
      title="Test connection"
      description="Connects to the running server like a remote client would (MCP 2026-07-28: discover, then list tools)."
      actions={
        <button type="button" className="button primary" onClick={test} disabled={testing}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
      }
    >
      <ResultBox live>
        {result === null ? (
          <span className="muted">{status.state === 'running' ? `Running at ${status.url}` : 'The server is not running.'}</span>
        ) : result.ok ? (
          <span className="ok">
            <Icon name="check" size={16} /> Connected to {result.url}: {result.toolCount} {result.toolCount === 1 ? 'tool' : 'tools'} available (
            {result.durationMs} ms).
          </span>
        ) : (
          <span className="bad">
            <Icon name="warning" size={16} /> {result.error}
          </span>
        )}
      </ResultBox>
    </Card>
  );
}
