/**
 * What `config check` says about profiles: which profile each kind of caller gets and how many
 * of the granted tools that leaves it, so a binding that hides too much is seen before a start.
 */
import type { Config } from '../config/schema.js';
import { describeProfile } from '../config/sections/profiles.js';
import { annotationsOf, enabledTools } from '../mcp/server.js';
import { ProfilePolicy, type CallerProfile, type Credential } from '../policy/profiles.js';
import type { ToolDefinition } from '../mcp/tool.js';

/** The granted tools a caller with this credential gets. */
export function toolsFor(config: Readonly<Config>, credential: Credential): { caller: CallerProfile; tools: ToolDefinition[] } {
  const profiles = new ProfilePolicy(config);
  const caller = profiles.of(credential);
  const tools = enabledTools(config).filter((tool) => profiles.allows(caller.profile, tool.grant, annotationsOf(tool, config)));
  return { caller, tools };
}

export function profileNotes(config: Readonly<Config>): string[] {
  const line = (who: string, credential: Credential) => {
    const { caller, tools } = toolsFor(config, credential);
    return `${who}: "${caller.name}" (${caller.source}), ${tools.length} of the granted tools; it allows ${describeProfile(caller.profile)}`;
  };
  const notes = [line('stdio hosts and unbound callers', { kind: 'none' })];
  if (config.profiles.token) notes.push(line('callers with the static token', { kind: 'token' }));
  for (const clientId of Object.keys(config.profiles.clients)) notes.push(line(`the OAuth client ${clientId}`, { kind: 'oauth', clientId }));
  return notes;
}
