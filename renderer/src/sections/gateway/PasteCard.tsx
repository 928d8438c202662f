/** Adding servers by pasting the entry another MCP host uses (main/config/pasted-servers.ts lists them). */
import { useState } from 'react';
import { Card } from '../../components/Card';
import { parsePasted, type Pasted } from '../../../../main/config/pasted-entry';

export function PasteCard({ add, taken }: { add(entries: Pasted['entries']): void; taken: ReadonlySet<string> }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<Pasted | null>(null);
  const [error, setError] = useState<string | null>(null);
  const convert = () => {
    try {
      const pasted = parsePasted(text);
      const clash = pasted.entries.find((e) => taken.has(e.name.toLowerCase()));
      if (clash) throw new Error(`There is already a server named "${clash.name}".`);
      setResult(pasted);
      setError(null);
    } catch (caught) {
      setResult(null);
      setError((caught as Error).message);
    }
  };
  return (
    <Card
      title="Add a server"
      description='Paste its entry from Claude Desktop, Claude Code, Cursor, Windsurf or Cline ("mcpServers" JSON), VS Code ("servers"), Zed ("context_servers") or Codex ([mcp_servers.NAME] TOML). Secret values are not copied: you store them separately.'
    >
      <label htmlFor="gateway-paste" className="visually-hidden">
        Server entry
      </label>
      <textarea
        id="gateway-paste"
        className="paste-box"
        rows={7}
        spellCheck={false}
        placeholder={'"memory": {\n  "command": "npx",\n  "args": ["-y", "@modelcontextprotocol/server-memory"]\n}'}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="button-row">
        <button type="button" className="button" onClick={convert} disabled={!text.trim()}>
          Read entry
        </button>
        {result ? (
          <button
            type="button"
            className="button primary"
            onClick={() => {
              add(result.entries);
              setResult(null);
              setText('');
            }}
          >
            Add {result.entries.length === 1 ? result.entries[0]!.name : `${result.entries.length} servers`}
          </button>
        ) : null}
      </div>
      {error ? <p className="field-error">{error}</p> : null}
      {result ? (
        <div className="paste-result">
          <pre aria-label="Entry to add">{JSON.stringify(result.entries, null, 2)}</pre>
          <ul className="paste-notes">
            {result.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
