/** Every tool the server knows; the config decides which are exposed. */
import type { ToolDefinition } from '../tool.js';
import { systemInfo } from './system.js';

export const ALL_TOOLS: readonly ToolDefinition[] = [systemInfo] as unknown as ToolDefinition[];
