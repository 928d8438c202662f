import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { SettingsBridge } from '../../main/tray/bridge-api';
// What every part shares comes first, so a component's own stylesheet (imported by it) can build on it.
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/tables.css';
import { App } from './App';

declare global {
  interface Window {
    /** Exposed by the preload (main/tray/preload.ts); absent anywhere else. */
    chatgptMcp?: SettingsBridge;
  }
}

const root = createRoot(document.getElementById('root')!);
const bridge = window.chatgptMcp;
root.render(
  <StrictMode>
    {bridge ? (
      <App bridge={bridge} />
    ) : (
      <p className="no-bridge" role="alert">
        This page is the settings window of ChatGPT Computer MCP and only works inside the app.
      </p>
    )}
  </StrictMode>,
);
