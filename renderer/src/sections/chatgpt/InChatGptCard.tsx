/**
 * Step 5: adding the tunnel as an app in ChatGPT (its menus as OpenAI's developer-mode guide names
 * them), with the values to paste, and whether to offer search and fetch (what ChatGPT needs
 * outside developer mode).
 */
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import { Warning } from '../../components/fields/Warning';
import { useCopy } from '../../use-copy';
import type { SectionProps } from '../section-props';
import { CopyChip } from './CopyChip';
import './in-chatgpt.css';

const APP_NAME = 'ChatGPT Computer MCP';
/** The prompt names the tool as this server will expose it (server.toolNames). */
const testPrompt = (toolNames: string) =>
  `Use the ChatGPT Computer MCP app to call ${toolNames === 'underscore' ? 'system_info' : 'system.info'} and tell me what this computer allows.`;

export function InChatGptCard({ draft, edit, tunnelId, bridge }: Pick<SectionProps, 'draft' | 'edit'> & { tunnelId: string | null; bridge: SettingsBridge }) {
  const copier = useCopy(bridge);
  return (
    <Card
      title="5. In ChatGPT"
      description="Add the tunnel once as an app; the tunnel client adds this server's token itself, so ChatGPT needs no header or secret."
    >
      <ol className="journey">
        <li>
          Open ChatGPT&apos;s <strong>Settings › Apps</strong>.{' '}
          <button type="button" className="button link" onClick={() => void bridge.openLink('connectors')}>
            Open in the browser
          </button>
        </li>
        <li>
          Under <strong>Advanced settings</strong>, turn on <strong>Developer mode</strong>.
        </li>
        <li>
          <strong>Create app</strong> named <CopyChip text={APP_NAME} what="name" copier={copier} />, choose <strong>Connection: Tunnel</strong> and pick (or
          paste) your tunnel {tunnelId ? <CopyChip text={tunnelId} what="tunnel id" copier={copier} /> : <em>(enter the tunnel id in step 2)</em>}.
          Authentication: <strong>No Authentication</strong>.
        </li>
        <li>
          In a chat, turn the app on under the composer&apos;s <strong>Developer mode</strong> tool and try:{' '}
          <CopyChip text={testPrompt(draft.server.toolNames)} what="prompt" copier={copier} />
        </li>
        <li>
          After you change what this computer allows (and restart the server), open the app in <strong>Settings › Apps</strong> and press{' '}
          <strong>Refresh</strong>.
        </li>
      </ol>
      <Switch
        id={fieldId('chatgpt.searchFetch')}
        label="Offer search and fetch"
        description={
          draft.filesystem.read && draft.filesystem.roots.length > 0
            ? 'ChatGPT needs these two read-only tools for apps outside developer mode and for deep research. They find and read files in the shared folders.'
            : 'ChatGPT needs these two read-only tools for apps outside developer mode and for deep research. They need “Read files” and a shared folder (Files), which are not set.'
        }
        checked={draft.chatgpt.searchFetch}
        onChange={(on) => edit((d) => void (d.chatgpt.searchFetch = on))}
      />
      <Warning>ChatGPT keeps the tool list it saw when the app was created or last refreshed: new grants are invisible to it until you press Refresh.</Warning>
    </Card>
  );
}
