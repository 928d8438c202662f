/** What every view reads: the config the server wrote into the page, and a tool result's text. */

export interface ToolResult {
  content?: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Where the server puts what the model's shape of the answer left out (main/mcp/views.ts). */
const VIEW_DATA_KEY = 'io.github.chatgpt-mcp/view';

/** The whole structured result: ChatGPT's answers keep the payload in the text and hand it to views in `_meta`. */
export function structuredOf(result: ToolResult): unknown {
  return result._meta?.[VIEW_DATA_KEY] ?? result.structuredContent;
}

/** The server fills `#view-config` (JSON, not script: the CSP allows only the view's own code). */
export function readConfig<T>(): T {
  return JSON.parse(document.getElementById('view-config')?.textContent ?? '{}') as T;
}

/** The text answer, exactly what a host without views shows. */
export function textOf(result: ToolResult): string {
  return (result.content ?? [])
    .filter((c) => c.type === 'text' && c.text)
    .map((c) => c.text)
    .join('\n');
}
