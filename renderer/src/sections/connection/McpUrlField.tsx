/** The MCP URL, read-only with a Copy button; or, when there is none to give out, why. */
import { Icon } from '../../components/Icon';
import { TextField } from '../../components/fields/TextField';
import type { Copier } from '../../use-copy';
import './connection.css';

export function McpUrlField({ address, copier }: { address: { url: string; hint: string } | { url: null; why: string }; copier: Copier }) {
  const { copied, copy } = copier;
  if (address.url === null) {
    return (
      <div className="field">
        <span className="field-label" id="mcp-url-label">
          MCP URL
        </span>
        <p className="no-value" id="mcp-url" aria-labelledby="mcp-url-label">
          {address.why}
        </p>
      </div>
    );
  }
  return (
    <TextField
      id="mcp-url"
      label="MCP URL"
      value={address.url}
      mono
      readOnly
      onChange={() => {}}
      hint={address.hint}
      trailing={
        <button type="button" className="button" aria-label="Copy MCP URL" onClick={() => copy('url', address.url)}>
          <Icon name={copied === 'url' ? 'check' : 'copy'} size={15} />
          {copied === 'url' ? 'Copied' : 'Copy'}
        </button>
      }
    />
  );
}
