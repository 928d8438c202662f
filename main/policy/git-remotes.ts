/**
 * Which remotes git_push, git_pull and git_clone may reach: the owner's allow-lists (git.push,
 * git.pull) hold repository identities, and a remote URL is allowed when its identity is on the
 * list. The identity of a hosted repository is `host/owner/repo`: scheme, user, port, a `.git`
 * suffix and a trailing slash do not count, so `https://github.com/o/r.git`,
 * `git@github.com:o/r.git` and `ssh://git@github.com/o/r` are the same repository. A local
 * repository is its absolute path. Pure: the settings window validates entries with it.
 */

export type RemoteIdentity = { kind: 'hosted'; host: string; path: string } | { kind: 'local'; path: string };

/** Schemes git_push, git_pull and git_clone speak; `ext::` and every other `<helper>::` transport run programs. */
const HOSTED_SCHEMES = new Set(['https', 'ssh', 'git']);
const HOST = /^[A-Za-z0-9.-]+$/;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Parsed identity, or why the text is not a remote these tools may use. The short forms
 * (owner/repo, host/owner/repo) are the allow-list's own: as a remote's URL or a clone source
 * (`form: 'url'`) git would read them as a folder on this computer, so they are refused there.
 */
export function remoteIdentity(url: string, form: 'entry' | 'url' = 'entry'): RemoteIdentity | { problem: string } {
  // The owner's list may be written loosely; a URL is passed to git as it is, and git would not read it trimmed.
  const text = form === 'entry' ? url.trim() : url;
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(text))
    return { problem: `${text.split('::')[0]}:: runs a remote helper program; only https, ssh, git and local paths are allowed` };
  if (text === '' || /[\s\0]/.test(text)) return { problem: 'a remote has no spaces or control characters' };
  if (text.startsWith('-')) return { problem: 'a remote cannot start with "-"' };
  if (/(^|\/)\.\.?(\/|$)/.test(text)) return { problem: 'a remote has no . or .. segments' };
  if (text.startsWith('/')) return localIdentity(text);
  if (text.startsWith('file://')) {
    if (!text.startsWith('file:///')) return { problem: 'a file:// remote names an absolute path (file:///...)' };
    // git decodes it: what is decoded is judged (%2F.. is a .. segment).
    if (text.includes('%')) return { problem: 'a file:// remote has no %-escapes: write the path as it is' };
    return localIdentity(text.slice('file://'.length));
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (!HOSTED_SCHEMES.has(scheme)) return { problem: `${scheme}:// is not allowed; use https, ssh, git or a local path` };
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return { problem: 'not a valid URL' };
    }
    if (parsed.password) return { problem: 'a remote URL must not carry a password (use your credential helper)' };
    if (parsed.search || parsed.hash) return { problem: 'a remote URL has no query or fragment' };
    return hosted(parsed.hostname, decodeURIComponent(parsed.pathname));
  }
  // scp-like: [user@]host:path (git reads a colon before any slash this way).
  const scp = /^(?:[^@/:]+@)?([^@/:]+):(.+)$/.exec(text);
  if (scp) return hosted(scp[1]!, scp[2]!);
  // The allow-list's own short forms: host/owner/repo, or owner/repo on GitHub.
  if (form === 'url')
    return {
      problem: `git reads "${text}" as a folder on this computer, not a hosted repository: use https://host/owner/repo, git@host:owner/repo or an absolute path`,
    };
  const parts = text.split('/');
  if (parts.length === 2) return hosted('github.com', text);
  if (parts.length >= 3 && parts[0]!.includes('.')) return hosted(parts[0]!, parts.slice(1).join('/'));
  return { problem: 'expected "owner/repo" (GitHub), "host/owner/repo", an https:// or git@host: URL, or an absolute path' };
}

function hosted(host: string, rawPath: string): RemoteIdentity | { problem: string } {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (!HOST.test(name)) return { problem: `${host} is not a host name` };
  const segments = rawPath
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (segments.length < 1 || segments.some((s) => s === '' || s === '.' || s === '..' || !SEGMENT.test(s)))
    return { problem: `${rawPath} is not a repository path (segments of letters, digits, . _ ~ -)` };
  return { kind: 'hosted', host: name, path: segments.join('/') };
}

function localIdentity(path: string): RemoteIdentity {
  return { kind: 'local', path: `/${path.split('/').filter(Boolean).join('/')}` };
}

/** The identity in the words refusals and the settings window use. */
export function describeIdentity(identity: RemoteIdentity): string {
  return identity.kind === 'hosted' ? `${identity.host}/${identity.path}` : identity.path;
}

export function sameIdentity(a: RemoteIdentity, b: RemoteIdentity): boolean {
  // Host names are case-insensitive; repository paths are compared as written (some hosts tell cases apart).
  return a.kind === 'hosted' && b.kind === 'hosted' ? a.host === b.host && a.path === b.path : a.kind === b.kind && a.path === b.path;
}

/** Why an allow-list entry is not usable, or null. */
export function remoteEntryProblem(entry: string): string | null {
  const parsed = remoteIdentity(entry);
  return 'problem' in parsed ? parsed.problem : null;
}
