/**
 * Profiles: which of the granted tools a caller gets. The credential on each request decides
 * (no session state): an OAuth client bound in profiles.clients, the static token bound in
 * profiles.token, else the active profile (stdio, server.auth "none", unbound callers). A
 * profile only narrows: a tool still needs its grant from the config.
 */
import type { Config } from '../config/schema.js';
import { allProfiles, describeProfile, PROFILE_GRANTS, type Profile, type ProfileGrant } from '../config/sections/profiles.js';
import { GRANT, type Grant } from './grants.js';

/** Who presents what credential: the policy's view of a caller. */
export type Credential = { kind: 'oauth'; clientId: string } | { kind: 'token' } | { kind: 'none' };

/** Where a caller's profile came from, in the config's words. */
const SOURCE: Record<Credential['kind'], string> = {
  oauth: 'profiles.clients binds this OAuth client',
  token: 'profiles.token binds the static token',
  none: 'profiles.active',
};

export interface CallerProfile {
  name: string;
  profile: Profile;
  /** Which setting chose it. */
  source: string;
}

const grantNames = new Map<Grant, ProfileGrant>(PROFILE_GRANTS.map((name) => [GRANT[name], name]));

export class ProfilePolicy {
  private readonly profiles: Record<string, Profile>;

  constructor(private readonly config: Readonly<Config>) {
    this.profiles = allProfiles(config.profiles.sets);
  }

  /** The profile names, built-in first. */
  names(): string[] {
    return Object.keys(this.profiles);
  }

  /** The profile this credential gets. */
  of(credential: Credential): CallerProfile {
    const { profiles } = this.config;
    // Own keys only: a client id is the client's to choose (a metadata document's URL), never an inherited member.
    const bound =
      credential.kind === 'oauth'
        ? Object.hasOwn(profiles.clients, credential.clientId)
          ? profiles.clients[credential.clientId]
          : undefined
        : credential.kind === 'token'
          ? profiles.token
          : undefined;
    const name = bound ?? profiles.active;
    return { name, profile: this.profiles[name]!, source: bound ? SOURCE[credential.kind] : SOURCE.none };
  }

  /** Whether the profile lets a caller have a granted tool (its grant, its annotations). */
  allows(profile: Profile, grant: Grant, annotations: { readOnlyHint?: boolean } | undefined): boolean {
    if (profile.readOnly && annotations?.readOnlyHint !== true) return false;
    const name = grantNames.get(grant);
    return name === undefined || profile.grants.includes(name);
  }

  /** Whether the profile lets a caller have the other MCP servers' tools: never a read-only one (an upstream's annotations are its own claim). */
  allowsGateway(profile: Profile): boolean {
    return profile.gateway && !profile.readOnly;
  }

  /** The refusal of a granted tool outside the caller's profile: which profile, why it applies, what it allows. */
  refusal(exposed: string, caller: CallerProfile, why?: string): string {
    return (
      `CAPABILITY_DISABLED: ${exposed} is outside the profile "${caller.name}" this caller has (${caller.source}); ` +
      `"${caller.name}" allows ${describeProfile(caller.profile)}; ${why ? `${why}; ` : ''}the owner binds this caller to another profile ` +
      '(settings: Profiles), then restarts the server'
    );
  }

  /** The refusal of another MCP server's tool to a caller whose profile has no gateway: the same words, and why. */
  gatewayRefusal(exposed: string, caller: CallerProfile): string {
    const why = caller.profile.readOnly
      ? "a read-only profile never has the other MCP servers' tools (their annotations are their own claim)"
      : `"${caller.name}" does not include the other MCP servers' tools (profiles.sets: gateway)`;
    return this.refusal(exposed, caller, why);
  }
}
