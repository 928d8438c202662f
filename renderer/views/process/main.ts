/**
 * The live process view for process.start and process.output: the output's tail (stdout, and
 * stderr marked) and the state, following the process by asking the host to call
 * process.output with the offsets it has read, each call waiting a few seconds for more, until
 * the process exits, at most one a second and for ten minutes (then a button follows again).
 * Each refresh is an ordinary tool call (policy, activity log). A result without a handle (a
 * refusal) shows the text answer.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import { readConfig, structuredOf, textOf, type ToolResult } from '../shared/result.js';

interface Chunk {
  text: string;
  nextOffset: number;
}
interface Status {
  processHandle: string;
  pid: number;
  state: 'running' | 'exited';
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout?: Chunk;
  stderr?: Chunk;
}

/** Lines kept on screen: the tail is what matters, and the page stays small. */
const MAX_LINES = 500;
/** How long each refresh waits for more output (process.output's waitMs). */
const WAIT_MS = 5000;
/** At most one refresh a second however fast output comes: each is a round trip through the host and a line in the audit log. */
const MIN_INTERVAL_MS = 1000;
/** A view left open must not poll forever: following stops after this long, and a button starts it again. */
const FOLLOW_FOR_MS = 10 * 60_000;

const config = readConfig<{ output: string }>();
const state = document.getElementById('state') as HTMLElement;
const out = document.getElementById('out') as HTMLPreElement;
const text = document.getElementById('text') as HTMLPreElement;
const resume = document.getElementById('resume') as HTMLButtonElement;
const offsets = { stdoutOffset: 0, stderrOffset: 0 };
let following: string | null = null;

function append(chunk: Chunk | undefined, stream: 'stdout' | 'stderr'): void {
  if (!chunk) return;
  offsets[stream === 'stdout' ? 'stdoutOffset' : 'stderrOffset'] = chunk.nextOffset;
  if (!chunk.text) return;
  const lines = chunk.text.replace(/\n$/, '').split('\n');
  for (const line of lines) out.append(Object.assign(document.createElement('span'), { className: stream, textContent: line || ' ' }));
  while (out.childElementCount > MAX_LINES) out.firstElementChild?.remove();
  out.scrollTop = out.scrollHeight;
}

function showState(status: Status): void {
  const seconds = (status.durationMs / 1000).toFixed(1);
  if (status.state === 'running') {
    state.textContent = `Running (pid ${status.pid}), ${seconds} s`;
    state.className = 'running';
    return;
  }
  const how = status.signal ? `killed by ${status.signal}` : `exited with code ${status.exitCode}`;
  state.textContent = `${status.timedOut ? 'Timed out, ' : ''}${how} after ${seconds} s`;
  state.className = status.exitCode === 0 ? 'exited' : 'failed';
}

function take(status: Status): void {
  append(status.stdout, 'stdout');
  append(status.stderr, 'stderr');
  out.hidden = false;
  showState(status);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function follow(handle: string): Promise<void> {
  following = handle;
  resume.hidden = true;
  const started = Date.now();
  while (following === handle) {
    const asked = Date.now();
    const answer = (await app.callServerTool({ name: config.output, arguments: { processHandle: handle, ...offsets, waitMs: WAIT_MS } })) as ToolResult;
    if (answer.isError) {
      state.textContent = `Stopped following: ${textOf(answer)}`;
      state.className = 'failed';
      return;
    }
    const status = structuredOf(answer) as Status;
    take(status);
    if (status.state === 'exited') return;
    if (Date.now() - started >= FOLLOW_FOR_MS) {
      state.textContent += ` (stopped following after ${FOLLOW_FOR_MS / 60_000} minutes)`;
      resume.hidden = false;
      following = null;
      return;
    }
    await sleep(MIN_INTERVAL_MS - (Date.now() - asked));
  }
}

function startFollowing(handle: string): void {
  void follow(handle).catch((error: unknown) => (state.textContent = `Stopped following: ${String(error)}`));
}

function show(result: ToolResult): void {
  const status = structuredOf(result) as Status | undefined;
  text.textContent = textOf(result);
  if (result.isError || !status?.processHandle) {
    state.textContent = result.isError ? 'The process did not start' : 'No process to follow';
    state.className = 'failed';
    text.hidden = false;
    return;
  }
  take(status);
  if (status.state === 'running') startFollowing(status.processHandle);
  resume.onclick = () => startFollowing(status.processHandle);
}

const app = new App({ name: 'chatgpt-mcp-process', version: '1' });
app.ontoolresult = (result) => show(result as ToolResult);
// The host tears the view down: stop asking for output.
app.onteardown = () => ((following = null), {});
void app.connect();
