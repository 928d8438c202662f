/** What a call to one of the gateway's tools gets before the SDK's bare "not found". */
import { describe, expect, it } from 'vitest';
import { gatewayCalls } from '../../main/mcp/not-granted.js';

const tools = new Set(['notes_search', 'db_query']);
const text = (result: ReturnType<ReturnType<typeof gatewayCalls>>) => (result?.content[0] as { text: string } | undefined)?.text;

describe('gatewayCalls', () => {
  it('lets an exposed name through, and tells a dotted spelling the name to use', () => {
    const answer = gatewayCalls((name) => tools.has(name));
    expect(answer('notes_search')).toBeUndefined();
    expect(answer('fs.read')).toBeUndefined(); // not the gateway's: the SDK or the built-in answers decide
    const misnamed = answer('notes.search');
    expect(misnamed?.isError).toBe(true);
    expect(text(misnamed)).toBe(
      "INVALID_INPUT: this server has no tool notes.search; it is named notes_search here (another MCP server's tools are named prefix_tool); call notes_search",
    );
  });

  it("refuses every spelling of a gateway tool with the profile's words when the profile has no gateway", () => {
    const answer = gatewayCalls(
      (name) => tools.has(name),
      (exposed) => `CAPABILITY_DISABLED: ${exposed} is outside the profile "Coding"`,
    );
    expect(text(answer('db_query'))).toBe('CAPABILITY_DISABLED: db_query is outside the profile "Coding"');
    expect(text(answer('db.query'))).toBe('CAPABILITY_DISABLED: db_query is outside the profile "Coding"');
    expect(answer('db_drop')).toBeUndefined();
  });
});
