/**
 * Every tool the server knows, family by family; the config decides which are exposed. Each
 * family file exports its list: a tool added to a family needs no change here, a new family is
 * one line.
 */
import type { ToolDefinition } from '../tool.js';
import { answerTools } from './answer.js';
import { appTools } from './app.js';
import { auditTools } from './audit.js';
import { browserTools } from './browser.js';
import { chatgptSearchTools } from './chatgpt-search.js';
import { checkTools } from './checks.js';
import { clipboardTools } from './clipboard.js';
import { computerBatchTools } from './computer-batch.js';
import { downloadTools } from './download.js';
import { fileEditTools } from './file-edit.js';
import { fileSearchTools } from './file-search.js';
import { filesystemTools } from './filesystem.js';
import { gitReadTools } from './git.js';
import { gitRemoteTools } from './git-remote.js';
import { gitWriteTools } from './git-write.js';
import { inputTools } from './input.js';
import { inventoryTools } from './inventory.js';
import { processHandleTools } from './process-handles.js';
import { processTools } from './process.js';
import { screenTools } from './screen.js';
import { serviceTools } from './service.js';
import { shellTools } from './shell.js';
import { systemTools } from './system.js';
import { uiTools } from './ui.js';
import { windowTools } from './window.js';

// system.info stays first: clients (and the conformance suite) call the first tool as a probe.
export const ALL_TOOLS = [
  ...systemTools,
  ...filesystemTools,
  ...fileEditTools,
  ...fileSearchTools,
  ...downloadTools,
  ...shellTools,
  ...processHandleTools,
  ...processTools,
  ...screenTools,
  ...inputTools,
  ...uiTools,
  ...computerBatchTools,
  ...windowTools,
  ...clipboardTools,
  ...appTools,
  ...browserTools,
  ...serviceTools,
  ...chatgptSearchTools,
  ...answerTools,
  ...gitReadTools,
  ...gitWriteTools,
  ...gitRemoteTools,
  ...checkTools,
  ...auditTools,
  ...inventoryTools,
] as unknown as readonly ToolDefinition[];
