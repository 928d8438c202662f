/**
 * profiles.*: named grant sets. A profile narrows what the rest of the config grants, never
 * widens it: a tool is exposed to a caller when the config grants it AND the caller's profile
 * allows its grant. The active profile serves stdio and every caller with no binding; an OAuth
 * client (by id) or the static token can be bound to another one. The rule is main/policy/profiles.ts.
 */
import * as z from 'zod';
import { text } from './fields.js';

/** The grants a profile can allow, by their names in main/policy/grants.ts (system.info is always allowed). */
export const PROFILE_GRANTS = [
  'filesRead',
  'filesWrite',
  'filesEdit',
  'chatgptSearch',
  'commands',
  'processList',
  'processKill',
  'screen',
  'input',
  'windows',
  'clipboardRead',
  'apps',
  'browser',
  'serviceStatus',
  'serviceControl',
  'auditRead',
  'gitRead',
  'gitWrite',
  'gitPush',
  'gitPull',
  'checks',
  'verifiedCommit',
  'inventory',
  'download',
] as const;
export type ProfileGrant = (typeof PROFILE_GRANTS)[number];

/** The grants in the owner's words, for the settings window and refusals. */
export const PROFILE_GRANT_LABELS: Readonly<Record<ProfileGrant, string>> = {
  filesRead: 'read files',
  filesWrite: 'write files',
  filesEdit: 'edit files',
  chatgptSearch: "ChatGPT's search and fetch",
  commands: 'run commands',
  processList: 'list processes',
  processKill: 'stop processes',
  screen: 'see the screen',
  input: 'mouse and keyboard',
  windows: 'windows',
  clipboardRead: 'read the clipboard',
  apps: 'open apps',
  browser: 'the browser',
  serviceStatus: 'service status',
  serviceControl: 'control services',
  auditRead: 'read the audit log',
  gitRead: 'read git',
  gitWrite: 'git commits',
  gitPush: 'git push',
  gitPull: 'git pull',
  checks: 'project checks',
  verifiedCommit: 'verified commits',
  inventory: "the computer's inventory",
  download: 'download from the web',
};

const profileName = text.max(40, 'must be at most 40 characters');

export const profileSchema = z.strictObject({
  /** The grants it allows, of those the config gives. */
  grants: z.array(z.enum(PROFILE_GRANTS)).default([]),
  /** Only tools whose annotations say they change nothing. */
  readOnly: z.boolean().default(false),
  /** The tools of the owner's other MCP servers (gateway.servers); never with readOnly. */
  gateway: z.boolean().default(false),
});
export type Profile = z.output<typeof profileSchema>;

const ALL = [...PROFILE_GRANTS];
const CODING: ProfileGrant[] = [
  'filesRead',
  'filesWrite',
  'filesEdit',
  'chatgptSearch',
  'commands',
  'processList',
  'gitRead',
  'gitWrite',
  'gitPush',
  'gitPull',
  'checks',
  'verifiedCommit',
  'inventory',
];
const DESKTOP: ProfileGrant[] = ['filesRead', 'screen', 'input', 'windows', 'clipboardRead', 'apps', 'browser', 'processList', 'serviceStatus'];

/** The built-in profiles; "Full" (the default) is everything the config grants. */
export const BUILT_IN_PROFILES: Readonly<Record<string, Profile>> = Object.freeze({
  Full: { grants: ALL, readOnly: false, gateway: true },
  // No gateway: the other servers' tools are not filtered by their annotations per profile (yet).
  'Read-only': { grants: ALL, readOnly: true, gateway: false },
  Coding: { grants: CODING, readOnly: false, gateway: false },
  Desktop: { grants: DESKTOP, readOnly: false, gateway: false },
});
export const DEFAULT_PROFILE = 'Full';

export const profilesSchema = z
  .strictObject({
    /** The profile of stdio and of every caller with no binding; the tray switches it. */
    active: profileName.default(DEFAULT_PROFILE),
    /** The owner's own profiles, besides the built-in ones (whose names they cannot take). */
    sets: z.record(profileName, profileSchema).default({}),
    /** The static bearer token's profile (default: the active one). */
    token: profileName.optional(),
    /** OAuth client id -> its profile (default: the active one). */
    clients: z.record(text.max(200), profileName).default({}),
  })
  .superRefine((profiles, ctx) => {
    const known = new Set([...Object.keys(BUILT_IN_PROFILES), ...Object.keys(profiles.sets)]);
    const names = `expected one of ${[...known].map((n) => JSON.stringify(n)).join(', ')}`;
    const check = (name: string | undefined, path: (string | number)[]) => {
      if (name !== undefined && !known.has(name)) ctx.addIssue({ code: 'custom', path, message: `names no profile: ${names}` });
    };
    check(profiles.active, ['active']);
    check(profiles.token, ['token']);
    for (const [id, name] of Object.entries(profiles.clients)) check(name, ['clients', id]);
    for (const name of Object.keys(profiles.sets)) {
      if (Object.hasOwn(BUILT_IN_PROFILES, name))
        ctx.addIssue({ code: 'custom', path: ['sets', name], message: 'is a built-in profile; give yours another name' });
    }
  });

/** Every profile by name: the built-in ones, then the owner's. */
export function allProfiles(sets: Readonly<Record<string, Profile>>): Record<string, Profile> {
  return { ...BUILT_IN_PROFILES, ...sets };
}

/** What a profile allows, in the owner's words: "read files, run commands (only tools that change nothing)". */
export function describeProfile(profile: Profile): string {
  const grants =
    profile.grants.length === PROFILE_GRANTS.length
      ? 'every granted tool'
      : profile.grants.map((g) => PROFILE_GRANT_LABELS[g]).join(', ') || 'system info only';
  const gateway = profile.gateway && !profile.readOnly ? ', the other MCP servers' : '';
  return `${grants}${gateway}${profile.readOnly ? ' (only tools that change nothing)' : ''}`;
}
