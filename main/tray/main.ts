/** Entry of the tray app's main process (built by electron-vite to out/app/main/index.js). */
import { runApp } from './app-main.js';

runApp({ mainDir: import.meta.dirname }).catch((error: unknown) => {
  process.stderr.write(`chatgpt-mcp app: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
