/** Every tool the server knows; the config decides which are exposed. */
import type { ToolDefinition } from '../tool.js';
import { appClose, appLaunch } from './app.js';
import { browserOpen } from './browser.js';
import { chatgptSearchTools } from './chatgpt-search.js';
import { fsEdit, fsPatch } from './file-edit.js';
import { fileSearchTools } from './file-search.js';
import { filesystemTools } from './filesystem.js';
import { inputTools } from './input.js';
import { processHandleTools } from './process-handles.js';
import { processTools } from './process.js';
import { screenTools } from './screen.js';
import { serviceControl, serviceStatus } from './service.js';
import { shellExec } from './shell.js';
import { systemInfo } from './system.js';
import { uiTools } from './ui.js';

// system.info stays first: clients (and the conformance suite) call the first tool as a probe.
export const ALL_TOOLS = [
  systemInfo,
  ...filesystemTools,
  fsEdit,
  fsPatch,
  ...fileSearchTools,
  shellExec,
  ...processHandleTools,
  ...processTools,
  ...screenTools,
  ...inputTools,
  ...uiTools,
  appLaunch,
  appClose,
  browserOpen,
  serviceStatus,
  serviceControl,
  ...chatgptSearchTools,
] as unknown as readonly ToolDefinition[];
