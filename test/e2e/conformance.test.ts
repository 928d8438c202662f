/**
 * The official MCP conformance suite against our HTTP server: every server scenario of the
 * 2026-07-28 requirement set, of the legacy 2025-11-25 set (stateless legacy compatibility),
 * and any other server scenario the suite has (extensions). Every scenario must pass except
 * those below that exercise the suite's fixture server (tools, resources and prompts under
 * fixed test names, or capabilities a tools-only server does not offer). The tool list is
 * whatever the config enables, so new tools are covered (tools/list is schema-checked).
 *
 * The first run downloads the suite and a Node 22 binary through npx (~30 s cold, ~300 MB of
 * npm cache); .ci/run pre-fetches them with the same package list (see NPX_PACKAGES).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judge, summarize, type CheckSkips, type ScenarioSkips, type Verdict } from './conformance/judge.js';
import { installSuite, listServerScenarios, runRequirements, runScenarios, SUITE_VERSION, type ScenarioResult, type Toolchain } from './conformance/suite.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const FIXTURE_TOOL = "calls a tool of the suite's fixture server by its fixed name";
const NO_RESOURCES = 'needs fixture resources; this server exposes tools only';
const NO_PROMPTS = 'needs fixture prompts; this server exposes tools only';
const TASKS = 'the optional tasks extension (SEP-2663) with its fixture tools; not implemented, unscored by the suite';

/** Whole scenarios that need the fixture server. One line each: what it needs. */
const FIXTURE_SCENARIOS: ScenarioSkips = {
  'tools-call-simple-text': `${FIXTURE_TOOL} (test_simple_text)`,
  'tools-call-image': `${FIXTURE_TOOL} (test_image_content)`,
  'tools-call-audio': `${FIXTURE_TOOL} (test_audio_content)`,
  'tools-call-embedded-resource': `${FIXTURE_TOOL} (test_embedded_resource)`,
  'tools-call-mixed-content': `${FIXTURE_TOOL} (test_multiple_content_types)`,
  'tools-call-error': `${FIXTURE_TOOL} (test_error_handling)`,
  'tools-call-with-progress': `${FIXTURE_TOOL} (test_tool_with_progress)`,
  'tools-call-with-logging': `${FIXTURE_TOOL} that sends log messages (logging capability)`,
  'tools-call-sampling': `${FIXTURE_TOOL} (test_sampling)`,
  'tools-call-elicitation': `${FIXTURE_TOOL} (test_elicitation)`,
  'elicitation-sep1034-defaults': `${FIXTURE_TOOL} (test_elicitation_sep1034_defaults)`,
  'elicitation-sep1330-enums': `${FIXTURE_TOOL} (test_elicitation_sep1330_enums)`,
  'json-schema-2020-12': `${FIXTURE_TOOL} (json_schema_2020_12_tool)`,
  'http-custom-header-server-validation': 'needs a tool whose input schema carries x-mcp-header annotations; ours have none',
  'input-required-result-basic-elicitation': `${FIXTURE_TOOL} (test_input_required_result_elicitation)`,
  'input-required-result-basic-sampling': `${FIXTURE_TOOL} (test_input_required_result_sampling)`,
  'input-required-result-basic-list-roots': `${FIXTURE_TOOL} (test_input_required_result_list_roots)`,
  'input-required-result-request-state': `${FIXTURE_TOOL} (test_input_required_result_request_state)`,
  'input-required-result-multiple-input-requests': `${FIXTURE_TOOL} (test_input_required_result_multiple_inputs)`,
  'input-required-result-multi-round': `${FIXTURE_TOOL} (test_input_required_result_multi_round)`,
  'input-required-result-result-type': `${FIXTURE_TOOL} (test_input_required_result_elicitation)`,
  'input-required-result-tampered-state': `${FIXTURE_TOOL} (test_input_required_result_*)`,
  'input-required-result-capability-check': `${FIXTURE_TOOL} (test_input_required_result_capabilities)`,
  'input-required-result-non-tool-request': NO_PROMPTS,
  'completion-complete': 'needs completions for fixture prompts or resource templates; this server has neither',
  'logging-set-level': 'needs the logging capability; this server logs to its own stderr, not to clients',
  'resources-list': NO_RESOURCES,
  'resources-read-text': NO_RESOURCES,
  'resources-read-binary': NO_RESOURCES,
  'resources-templates-read': NO_RESOURCES,
  'resources-subscribe': NO_RESOURCES,
  'resources-unsubscribe': NO_RESOURCES,
  'prompts-list': NO_PROMPTS,
  'prompts-get-simple': NO_PROMPTS,
  'prompts-get-with-args': NO_PROMPTS,
  'prompts-get-embedded-resource': NO_PROMPTS,
  'prompts-get-with-image': NO_PROMPTS,
  'tasks-lifecycle': TASKS,
  'tasks-capability-negotiation': TASKS,
  'tasks-wire-fields': TASKS,
  'tasks-request-state-removal': TASKS,
  'tasks-mrtr-input': TASKS,
  'tasks-request-headers': TASKS,
  'tasks-dispatch-and-envelope': TASKS,
  'tasks-required-task-error': TASKS,
  'tasks-mrtr-composition': TASKS,
};

/** Single checks inside scenarios whose other checks must pass. */
const FIXTURE_CHECKS: CheckSkips = {
  'server-stateless': {
    'sep-2575-server-rejects-undeclared-capability': `${FIXTURE_TOOL} (test_missing_capability)`,
    'sep-2575-missing-capability-http-400': `${FIXTURE_TOOL} (test_missing_capability)`,
    'sep-2575-http-server-no-independent-requests-on-stream': `${FIXTURE_TOOL} (test_streaming_elicitation)`,
    'sep-2575-server-no-log-without-loglevel': `${FIXTURE_TOOL} (test_logging_tool)`,
  },
  caching: {
    'sep-2549-prompts-list-caching-hints': NO_PROMPTS,
    'sep-2549-resources-list-caching-hints': NO_RESOURCES,
    'sep-2549-resources-templates-list-caching-hints': NO_RESOURCES,
  },
};

const MINUTE = 60_000;

describe(`MCP conformance suite ${SUITE_VERSION} against the HTTP server`, () => {
  let server: TestHttpServer;
  let suite: Toolchain;
  let work: string;
  const seen = new Set<string>();

  beforeAll(async () => {
    work = makeTempDir('chatgpt-mcp-conformance-');
    const root = path.join(work, 'root');
    fs.mkdirSync(root);
    // Harmless grants confined to a temp root, so tools/list (schema-checked by the suite)
    // shows as many tools as possible. Besides its fixture names, the suite calls only the
    // first listed tool with empty arguments (http-header-validation); killing stays off.
    server = await startTestServer({
      filesystem: { read: true, write: true, roots: [root] },
      shell: { enabled: true, allowedCommands: ['echo'] },
      process: { list: true },
    });
    // Downloads the suite and Node 22 on a cold npm cache, so the runs below time only the suite.
    suite = await installSuite(5 * MINUTE);
    expect(suite.nodeVersion, 'the suite needs Node 22 (fs.globSync)').toMatch(/^v22\./);
  }, 6 * MINUTE);

  afterAll(async () => {
    await server?.close();
    if (work) removeDir(work);
  });

  function expectAllPass(title: string, results: ScenarioResult[], ms: number): Verdict[] {
    for (const r of results) seen.add(r.scenario);
    const verdicts = judge(results, FIXTURE_SCENARIOS, FIXTURE_CHECKS);
    const summary = summarize(title, verdicts, ms);
    console.log(summary);
    expect(
      verdicts.filter((v) => v.outcome === 'fail').map((v) => v.scenario),
      summary,
    ).toEqual([]);
    return verdicts;
  }

  it(
    'passes every 2026-07-28 server scenario that needs no fixture',
    async () => {
      const { results, run } = await runRequirements(suite, server.url, '2026-07-28', path.join(work, '2026-07-28'), 4 * MINUTE);
      const verdicts = expectAllPass('2026-07-28', results, run.ms);
      // The stateless core must really have run; only its listed fixture checks may fail.
      expect(['pass', 'partial']).toContain(verdicts.find((v) => v.scenario === 'server-stateless')?.outcome);
    },
    5 * MINUTE,
  );

  it(
    'passes every legacy 2025-11-25 server scenario that needs no fixture',
    async () => {
      const { results, run } = await runRequirements(suite, server.url, '2025-11-25', path.join(work, '2025-11-25'), 4 * MINUTE);
      const verdicts = expectAllPass('2025-11-25 (legacy)', results, run.ms);
      expect(verdicts.find((v) => v.scenario === 'server-initialize')?.outcome).toBe('pass');
    },
    5 * MINUTE,
  );

  // Runs after the two above and skips what they ran (run alone, it runs every scenario).
  it(
    'passes the server scenarios outside both requirement sets',
    async () => {
      const started = Date.now();
      const rest = (await listServerScenarios(suite, MINUTE)).filter((name) => !seen.has(name));
      const results = await runScenarios(suite, server.url, rest, path.join(work, 'other'), 4 * MINUTE);
      expectAllPass('other server scenarios', results, Date.now() - started);
    },
    5 * MINUTE,
  );
});
