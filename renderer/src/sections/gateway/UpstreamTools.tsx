/**
 * An upstream's tools, each switched on or off: off adds its exact name to `tools.exclude`. A
 * tool that `tools.include` or `tools.excludeMatching` leaves out shows why, its switch locked
 * (those are edited in the config file). Each also has its kind (`tools.kinds`): what the server
 * claims, or what the owner says it does. Tools are known once the upstream was seen.
 */
import { leftOutBy, type LeftOut, type ToolChoice } from '../../../../main/policy/tool-exclusion';
import type { UpstreamRow } from '../../../../main/tray/bridge-api';
import type { DraftUpstream } from '../../draft';
import { TOOL_KINDS, type ToolKind } from '../../../../main/config/schema';

const KIND_LABELS: Record<ToolKind, string> = {
  'read-only': 'read-only',
  'local-state': 'changes local state',
  destructive: 'destructive',
  'open-world': 'reaches the outside world',
};

export function UpstreamTools({
  entry,
  index,
  known,
  change,
}: {
  entry: DraftUpstream;
  index: number;
  known: UpstreamRow['known'];
  change(update: (entry: DraftUpstream) => void): void;
}) {
  const choice = (entry.tools ?? {}) as ToolChoice & Record<string, unknown>;
  const exclude = choice.exclude ?? [];
  const byRule = leftOutBy({ include: choice.include, excludeMatching: choice.excludeMatching });
  const kinds = (choice.kinds ?? {}) as Record<string, ToolKind>;
  // Both controls edit one copy of the entry's tools: the rest of it stays as the file has it.
  const editTools = (update: (tools: Record<string, unknown>) => void) =>
    change((e) => {
      const tools = { ...((e.tools ?? {}) as Record<string, unknown>) };
      update(tools);
      e.tools = tools;
    });
  const setKind = (name: string, kind: string) =>
    editTools((tools) => {
      const { [name]: _old, ...others } = (tools.kinds as Record<string, string> | undefined) ?? {};
      tools.kinds = kind ? { ...others, [name]: kind } : others;
    });
  const switchTo = (name: string, on: boolean) =>
    editTools((tools) => {
      const current = ((tools.exclude as string[] | undefined) ?? []).filter((n) => n !== name);
      tools.exclude = on ? current : [...current, name];
    });
  const on = known.filter((tool) => byRule(tool.name) === null && !exclude.includes(tool.name)).length;
  return (
    <fieldset className="upstream-tools">
      <legend>Tools it offers{known.length ? ` (${on} of ${known.length} on)` : ''}</legend>
      {known.length === 0 ? (
        <p className="hint">Its tools show here once it has started (or after &quot;chatgpt-mcp gateway test {entry.name}&quot;).</p>
      ) : (
        <ul>
          {known.map((tool, i) => {
            const rule = byRule(tool.name);
            // By position: a tool's name is the upstream's own words, not an id.
            const id = `gateway-${index}-tool-${i}`;
            return (
              <li key={tool.name} className={rule ? 'is-disabled' : undefined}>
                <input
                  id={id}
                  type="checkbox"
                  checked={rule === null && !exclude.includes(tool.name)}
                  disabled={rule !== null}
                  onChange={(event) => switchTo(tool.name, event.target.checked)}
                />
                <label htmlFor={id}>
                  <code>{tool.label}</code>
                  {tool.about ? <span className="hint"> {tool.about}</span> : null}
                  {rule ? <span className="hint"> ({why(rule)})</span> : null}
                </label>
                <select aria-label={`What ${tool.label} does`} value={kinds[tool.name] ?? ''} onChange={(event) => setKind(tool.name, event.target.value)}>
                  <option value="">as the server says</option>
                  {TOOL_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {KIND_LABELS[kind]}
                    </option>
                  ))}
                </select>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

function why(rule: LeftOut): string {
  if (rule.by === 'include') return 'not in tools.include';
  if (rule.by === 'excludeMatching') return `left out by tools.excludeMatching "${rule.part}"`;
  return 'off';
}
