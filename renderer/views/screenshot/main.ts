/**
 * The screenshot view: the capture with zoom and a crosshair reading coordinates in the
 * model's space (the image's own pixels, which `space` maps to the desktop); a click asks the
 * host to call the click tool with them, so the owner can point and the policy still decides.
 * Without the image (a host that drops images, images blocked) the text answer is shown.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import { readConfig, structuredOf, textOf, type ToolResult } from '../shared/result.js';

interface Space {
  width: number;
  height: number;
  area?: { x: number; y: number; width: number; height: number };
}

const config = readConfig<{ click: string }>();
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const stage = $<HTMLDivElement>('stage');
const shot = $<HTMLImageElement>('shot');
const coords = $<HTMLOutputElement>('coords');
const status = $<HTMLSpanElement>('status');
const text = $<HTMLPreElement>('text');
const zoom = $<HTMLSelectElement>('zoom');
let space: Space | null = null;

const app = new App({ name: 'chatgpt-mcp-screenshot', version: '1' });

/** The point under the pointer in the image's pixels (the model's space), or null off the image. */
function pointAt(event: MouseEvent): { x: number; y: number } | null {
  if (!space) return null;
  const box = shot.getBoundingClientRect();
  const x = Math.floor(((event.clientX - box.left) / box.width) * space.width);
  const y = Math.floor(((event.clientY - box.top) / box.height) * space.height);
  return x >= 0 && y >= 0 && x < space.width && y < space.height ? { x, y } : null;
}

function applyZoom(): void {
  const factor = Number(zoom.value);
  shot.style.width = factor === 0 || !space ? '100%' : `${space.width * factor}px`;
}

function show(result: ToolResult): void {
  const structured = structuredOf(result) as { space?: Space } | undefined;
  const image = result.content?.find((c) => c.type === 'image' && c.data);
  text.textContent = textOf(result);
  space = structured?.space ?? null;
  if (image && space && !result.isError) {
    shot.src = `data:${image.mimeType ?? 'image/png'};base64,${image.data}`;
    shot.alt = `Screenshot, ${space.width}×${space.height} in the model's space`;
    stage.hidden = false;
    applyZoom();
  }
}

stage.addEventListener('mousemove', (event) => {
  const point = pointAt(event);
  const [h, v] = [$('h'), $('v')];
  h.hidden = v.hidden = !point;
  if (!point) return void (coords.textContent = '–');
  coords.textContent = `x ${point.x}, y ${point.y}`;
  const box = stage.getBoundingClientRect();
  h.style.top = `${event.clientY - box.top + stage.scrollTop}px`;
  v.style.left = `${event.clientX - box.left + stage.scrollLeft}px`;
});

stage.addEventListener('click', async (event) => {
  const point = pointAt(event);
  if (!point || !space) return;
  status.textContent = `Asking to click at ${point.x}, ${point.y}…`;
  try {
    const answer = await app.callServerTool({ name: config.click, arguments: { x: point.x, y: point.y, space } });
    status.textContent = answer.isError ? `Refused: ${textOf(answer as ToolResult)}` : `Clicked at ${point.x}, ${point.y}`;
  } catch (error) {
    status.textContent = `The host did not run the click: ${error instanceof Error ? error.message : String(error)}`;
  }
});

zoom.addEventListener('change', applyZoom);
app.ontoolresult = (result) => show(result as ToolResult);
void app.connect();
