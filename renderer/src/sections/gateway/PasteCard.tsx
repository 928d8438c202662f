/** Adding servers by pasting the entry another MCP host uses (main/config/pasted-servers.ts lists them). */
import { useState } from 'react';
import { Card } from '../../components/Card';
import { parseAvoidingStored, type Pasted } from '../../../../main/config/pasted-entry';
import { readableJson, readableText } from '../../../../main/readable-json';

export function PasteCard({
  add,
  taken,
  storedAmong,
}: {
  add(entries: Pasted['entries']): void;
  taken: ReadonlySet<string>;
  /** Which of these secret names hold a value already: a pasted entry's references step past them. */
  storedAmong(names: string[]): Promise<string[]>;
}) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<Pasted | null>(null);
  const [error, setError] = useState<string | null>(null);
  const convert = async () => {
    try {
      const pasted = await parseAvoidingStored(text, storedAmong);
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
        <button type="button" className="button" onClick={() => void convert()} disabled={!text.trim()}>
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
          {/* Escaped: bidi and zero-width characters in a pasted name or command must not show one thing and add another. */}
          <pre aria-label="Entry to add">{readableJson(result.entries)}</pre>
          <ul className="paste-notes">
            {result.notes.map((note) => (
              <li key={note}>{readableText(note)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
