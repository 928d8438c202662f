import { describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { describeProfile, PROFILE_GRANTS } from '../../main/config/sections/profiles.js';
import { GRANT } from '../../main/policy/grants.js';
import { ProfilePolicy } from '../../main/policy/profiles.js';

const policy = (profiles: object) => new ProfilePolicy(configSchema.parse({ profiles }));

describe('the profile policy', () => {
  it('knows every grant but the one that is always there, so a new grant is placed in the profiles too', () => {
    expect([...PROFILE_GRANTS].sort()).toEqual(
      Object.keys(GRANT)
        .filter((name) => name !== 'always')
        .sort(),
    );
  });

  it('picks the profile from the credential: a bound client, the bound token, else the active one', () => {
    const profiles = policy({ active: 'Read-only', token: 'Coding', clients: { phone: 'Desktop' } });
    expect(profiles.of({ kind: 'oauth', clientId: 'phone' }).name).toBe('Desktop');
    expect(profiles.of({ kind: 'oauth', clientId: 'unbound' })).toMatchObject({ name: 'Read-only', source: 'profiles.active' });
    expect(profiles.of({ kind: 'token' })).toMatchObject({ name: 'Coding', source: 'profiles.token binds the static token' });
    expect(profiles.of({ kind: 'none' }).name).toBe('Read-only');
    expect(policy({}).of({ kind: 'none' }).name).toBe('Full');
    // A client id that names an inherited member is no binding.
    expect(profiles.of({ kind: 'oauth', clientId: 'constructor' }).name).toBe('Read-only');
    expect(configSchema.safeParse({ profiles: { active: 'toString', sets: { toString: {} } } }).success).toBe(true);
  });

  it('only narrows: a grant outside the profile, or a writing tool in a read-only one, is not allowed', () => {
    const profiles = policy({ sets: { Mine: { grants: ['filesRead'] } } });
    expect(profiles.of({ kind: 'none' }).name).toBe('Full'); // an own profile applies only where it is chosen
    const own = policy({ active: 'Mine', sets: { Mine: { grants: ['filesRead'] } } }).of({ kind: 'none' }).profile;
    expect(profiles.allows(own, GRANT.filesRead, { readOnlyHint: true })).toBe(true);
    expect(profiles.allows(own, GRANT.commands, undefined)).toBe(false);
    expect(profiles.allows(own, GRANT.always, { readOnlyHint: true })).toBe(true);
    const readOnly = policy({ active: 'Read-only' }).of({ kind: 'none' }).profile;
    expect(profiles.allows(readOnly, GRANT.filesWrite, { readOnlyHint: false })).toBe(false);
    expect(profiles.allows(readOnly, GRANT.filesRead, {})).toBe(false);
    expect(describeProfile(readOnly)).toBe('every granted tool (only tools that change nothing)');
    expect(describeProfile(own)).toBe('read files');
    // A read-only profile never has the other servers' tools: their annotations are theirs to claim.
    const mixed = { grants: [], readOnly: true, gateway: true };
    expect(profiles.allowsGateway(mixed)).toBe(false);
    expect(describeProfile(mixed)).toBe('system info only (only tools that change nothing)');
  });

  it("words the refusal of another server's tool by why the profile has none", () => {
    const profiles = policy({ active: 'Coding', token: 'Read-only', sets: { Mine: { grants: ['filesRead'], gateway: true } } });
    const coding = profiles.gatewayRefusal('db_query', profiles.of({ kind: 'none' }));
    expect(coding).toMatch(/^CAPABILITY_DISABLED: db_query is outside the profile "Coding" this caller has \(profiles.active\); "Coding" allows /);
    expect(coding).toContain(`; "Coding" does not include the other MCP servers' tools (profiles.sets: gateway); the owner binds this caller`);
    const readOnly = profiles.gatewayRefusal('db_query', profiles.of({ kind: 'token' }));
    expect(readOnly).toContain('(profiles.token binds the static token)');
    expect(readOnly).toContain("a read-only profile never has the other MCP servers' tools");
  });

  it('refuses a name that is no profile, and an own profile named like a built-in one', () => {
    const bad = configSchema.safeParse({ profiles: { active: 'Nope', clients: { x: 'Gone' }, sets: { Coding: {} } } });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toContain('profiles.active: names no profile: expected one of "Full", "Read-only", "Coding", "Desktop"');
    expect(messages.some((m) => m.startsWith('profiles.clients.x: names no profile'))).toBe(true);
    expect(messages).toContain('profiles.sets.Coding: is a built-in profile; give yours another name');
  });
});
