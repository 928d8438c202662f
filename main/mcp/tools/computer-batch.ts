/**
 * computer.batch: several desktop actions in one call, so a model pays one round trip (often
 * seconds through a tunnel) instead of one per action. Each step IS a call of the single tool it
 * names (input.move, input.click, ..., ui.invoke): the same argument schema, the same grant, the
 * same handler and so the same policy; steps run in order and the batch stops at the first that
 * fails, reporting every step's result. An optional capture at the end is screen.capture's
 * handler, under the screen grant. Consecutive moves are the one exception to a handler per
 * step: each is checked as input.move's call would be, then they are made together where the
 * adapter can (moveMouseMany: one write to the X server for them all) and each answers as
 * input.move does.
 */
import * as z from 'zod';
import { adapterError, isComputerAdapterError } from '../../../adapter/contract/errors.js';
import { defineTool, type CallInfo, type ToolDefinition, type ToolDeps } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import {
  inputClick,
  inputCursor,
  inputDown,
  inputDrag,
  inputKey,
  inputMove,
  inputScroll,
  inputType,
  inputUp,
  inputWait,
  MAX_WAIT_MS,
  movedAnswer,
  moveTarget,
} from './input.js';
import { screenCapture } from './screen.js';
import { uiInvoke } from './ui.js';

export const MAX_BATCH_STEPS = 50;

/** Each step's action and the tool that runs it. */
const STEP_TOOLS = {
  move: inputMove,
  click: inputClick,
  scroll: inputScroll,
  drag: inputDrag,
  down: inputDown,
  up: inputUp,
  type: inputType,
  key: inputKey,
  wait: inputWait,
  cursor: inputCursor,
  invoke: uiInvoke,
} as unknown as Record<string, ToolDefinition>;
type StepAction = keyof typeof STEP_TOOLS;
const ACTIONS = Object.keys(STEP_TOOLS) as [StepAction, ...StepAction[]];
/** A step's own field for a tool argument whose name the step already uses. */
const RENAMED: Record<string, string> = { action: 'uiAction' };

/** A field's schema without its default or optionality: a step's fields are optional, and the step's tool fills its defaults. */
function bare(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner.def.type === 'default' || inner.def.type === 'optional') inner = (inner as unknown as { unwrap(): z.ZodType }).unwrap();
  const description = schema.description ?? inner.description;
  return description ? inner.optional().describe(description) : inner.optional();
}

/** Every field of every step tool, once (the tools share the names of what they share: x, y, space, button, element...). */
const stepFields: Record<string, z.ZodType> = {};
for (const tool of Object.values(STEP_TOOLS)) {
  for (const [key, schema] of Object.entries(tool.input.shape as Record<string, z.ZodType>)) stepFields[RENAMED[key] ?? key] ??= bare(schema);
}

const step = z.object({
  action: z.enum(ACTIONS).describe('The tool the step calls: move = input.move, click = input.click, ..., invoke = ui.invoke'),
  ...stepFields,
});

const { saveTo: _saveTo, ...captureFields } = screenCapture.input.shape;
const capture = z.object(captureFields);

const stepResult = z.object({
  step: z.number().int().describe('1-based'),
  action: z.enum(ACTIONS),
  ok: z.boolean(),
  text: z.string(),
  result: z
    .union([...new Set(Object.values(STEP_TOOLS).map((t) => t.output))] as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
    .optional()
    .describe("The step tool's structured result"),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const BATCH_ANNOTATIONS = Object.freeze({
  title: 'Run desktop actions in order',
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
});

export const computerBatch = defineTool({
  name: 'computer.batch',
  title: 'Run several desktop actions',
  description:
    `Runs up to ${MAX_BATCH_STEPS} desktop actions in order in one call and stops at the first that fails. Each step is {action, ...the arguments ` +
    'of that tool}: move (input.move), click (input.click), scroll (input.scroll), drag (input.drag), down/up (input.down/up), type (input.type), ' +
    'key (input.key), wait (input.wait), cursor (input.cursor), invoke (ui.invoke; its `action` argument is `uiAction` here). Each step answers ' +
    `as its tool would; the result lists every step run, which failed, and how many were not run. Waits add up to at most ${MAX_WAIT_MS} ms. ` +
    '`capture` takes a screenshot after the last step (screen.capture arguments; needs the screen grant).',
  input: z.object({
    steps: z.array(step).min(1).max(MAX_BATCH_STEPS),
    capture: capture.optional().describe('Take a screenshot after the steps (screen.capture arguments)'),
  }),
  output: z.object({
    steps: z.array(stepResult),
    completed: z.number().int(),
    failedAt: z.number().int().nullable().describe('The 1-based step that failed; null when all ran'),
    notRun: z.number().int(),
    capture: screenCapture.output.optional().describe("screen.capture's result"),
  }),
  annotations: BATCH_ANNOTATIONS,
  grant: GRANT.input,
  target: (args) => ({ steps: args.steps.length, actions: [...new Set(args.steps.map((s) => s.action))], capture: args.capture !== undefined }),
  async run(args, deps, signal, call) {
    const waits = args.steps.reduce((sum, s) => sum + (s.action === 'wait' ? Number((s as { ms?: number }).ms ?? 0) : 0), 0);
    if (waits > MAX_WAIT_MS) return refusal(`the waits add up to ${waits} ms; at most ${MAX_WAIT_MS} ms in one batch`);
    if (args.capture && !GRANT.screen.granted(deps.config)) {
      return refusal(`capture needs the screen grant (${GRANT.screen.words}); run the batch without capture`);
    }
    const results: Array<z.output<typeof stepResult>> = [];
    const content: NonNullable<Awaited<ReturnType<ToolDefinition['run']>>['content']> = [];
    let failedAt: number | null = null;
    for (let index = 0; index < args.steps.length && failedAt === null;) {
      const moves = await runMoves(args.steps.slice(index), deps, signal);
      const outcomes = moves.length > 0 ? moves : [await runStep(args.steps[index]!, deps, signal, call)];
      for (const outcome of outcomes) {
        results.push({ step: index + 1, action: args.steps[index]!.action, ...outcome });
        index++;
        if (!outcome.ok) {
          failedAt = index;
          break;
        }
      }
    }
    let captured: z.output<typeof screenCapture.output> | undefined;
    if (failedAt === null && args.capture) {
      const shot = await screenCapture.run(screenCapture.input.parse(args.capture), deps, signal, call);
      captured = shot.structured;
      content.push(...(shot.content ?? []));
    }
    const notRun = args.steps.length - results.length;
    const structured = { steps: results, completed: results.filter((r) => r.ok).length, failedAt, notRun, ...(captured ? { capture: captured } : {}) };
    const head =
      failedAt === null
        ? `All ${results.length} step(s) ran${captured ? ', then captured the screen' : ''}.`
        : `Step ${failedAt} of ${args.steps.length} (${results[failedAt - 1]!.action}) failed; ${failedAt - 1} step(s) before it ran, ${notRun} after it were not run.`;
    const lines = results.map((r) => `${r.step}. ${r.action}: ${r.ok ? r.text : `FAILED ${r.error!.code}: ${r.error!.message}`}`);
    return { structured, text: [head, ...lines].join('\n'), content };
  },
});

type StepOutcome = Omit<z.output<typeof stepResult>, 'step' | 'action'>;
const fail = (code: string, message: string): StepOutcome => ({ ok: false, text: message, error: { code, message } });

/**
 * The moves at the head of `steps` made together, when there are at least two and the adapter
 * can: each checked as input.move's call is (a step that is not, and all after it, are left to
 * runStep), then one moveMouseMany. Empty when there is nothing to make together.
 */
async function runMoves(steps: ReadonlyArray<z.output<typeof step>>, deps: ToolDeps, signal: AbortSignal): Promise<StepOutcome[]> {
  const many = deps.adapter.desktop.moveMouseMany?.bind(deps.adapter.desktop);
  if (!many || steps[0]?.action !== 'move' || steps[1]?.action !== 'move') return [];
  const moves: Array<z.output<typeof inputMove.input>> = [];
  for (const s of steps) {
    const checked = s.action === 'move' ? checkStep(s, deps, signal) : null;
    if (!checked || 'refused' in checked) break;
    moves.push(checked.args as z.output<typeof inputMove.input>);
  }
  if (moves.length < 2) return [];
  const made = await many(moves.map(moveTarget)).catch((failure: unknown) => ({ reached: [], failure }));
  const outcomes: StepOutcome[] = made.reached.map((reached) => {
    const answer = movedAnswer(reached);
    return { ok: true, text: answer.text, result: answer.structured as unknown as Record<string, unknown> };
  });
  if (outcomes.length < moves.length) outcomes.push(failed(inputMove, made.failure));
  return outcomes;
}

/** A step's arguments as its tool takes them, once its grant and schema allow it; or why not. */
function checkStep(s: z.output<typeof step>, deps: ToolDeps, signal: AbortSignal): { args: Record<string, unknown> } | { refused: StepOutcome } {
  const tool = STEP_TOOLS[s.action]!;
  if (signal.aborted) return { refused: fail('TIMEOUT', 'the call was cancelled before this step') };
  if (!tool.grant.granted(deps.config)) return { refused: fail('CAPABILITY_DISABLED', `${tool.name} is not granted (${tool.grant.words})`) };
  const toolKeys = new Set(Object.keys(tool.input.shape).map((key) => RENAMED[key] ?? key));
  const given = Object.entries(s).filter(([key, value]) => key !== 'action' && value !== undefined);
  const stray = given.filter(([key]) => !toolKeys.has(key)).map(([key]) => key);
  if (stray.length)
    return {
      refused: fail('INVALID_INPUT', `${s.action} (${tool.name}) takes no ${stray.join(', ')}; it takes ${[...toolKeys].join(', ') || 'no arguments'}`),
    };
  const parsed = tool.input.safeParse(
    Object.fromEntries(given.map(([key, value]) => [Object.entries(RENAMED).find(([, own]) => own === key)?.[0] ?? key, value])),
  );
  if (!parsed.success)
    return { refused: fail('INVALID_INPUT', `${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}`) };
  return { args: parsed.data as Record<string, unknown> };
}

/** One step through its tool: its schema, its grant, its handler. */
async function runStep(s: z.output<typeof step>, deps: ToolDeps, signal: AbortSignal, call: CallInfo): Promise<StepOutcome> {
  const tool = STEP_TOOLS[s.action]!;
  const checked = checkStep(s, deps, signal);
  if ('refused' in checked) return checked.refused;
  try {
    const outcome = await tool.run(checked.args, deps, signal, call);
    return { ok: true, text: outcome.text, result: outcome.structured as Record<string, unknown> };
  } catch (error) {
    return failed(tool, error);
  }
}

/** A step's failure as the batch reports it: the adapter's code and message, or an unexpected one. */
function failed(tool: ToolDefinition, error: unknown): StepOutcome {
  if (isComputerAdapterError(error)) return fail(error.code, error.message);
  return fail('OS_ERROR', `${tool.name} failed unexpectedly`);
}

function refusal(message: string): never {
  throw adapterError('INVALID_INPUT', 'computer.batch', message);
}

export const computerBatchTools = [computerBatch];
