import { describe, expect, it } from 'vitest';
import { describeIdentity, remoteEntryProblem, remoteIdentity, sameIdentity, type RemoteIdentity } from '../../main/policy/git-remotes.js';

const id = (text: string) => remoteIdentity(text) as RemoteIdentity;

describe('remote identity', () => {
  it.each([
    'https://github.com/owner/repo.git',
    'https://github.com/owner/repo',
    'https://github.com/owner/repo/',
    'https://user@GitHub.com/owner/repo.git',
    'git@github.com:owner/repo.git',
    'git@github.com:owner/repo',
    'ssh://git@github.com/owner/repo.git',
    'ssh://git@github.com:22/owner/repo',
    'git://github.com/owner/repo.git',
    'github.com/owner/repo',
    'owner/repo',
  ])('%s is github.com/owner/repo', (url) => {
    expect(describeIdentity(id(url))).toBe('github.com/owner/repo');
    expect(sameIdentity(id(url), id('owner/repo'))).toBe(true);
  });

  it('tells repositories apart: another owner, a longer name, a case, another host, a subgroup', () => {
    for (const other of [
      'https://github.com/other/repo',
      'https://github.com/owner/repo2',
      'https://github.com/Owner/repo',
      'https://gitlab.com/owner/repo',
      'https://github.com/owner/repo/sub',
    ])
      expect(sameIdentity(id(other), id('owner/repo')), other).toBe(false);
  });

  it('reads local repositories as their absolute path', () => {
    expect(id('/srv/git/project.git/')).toEqual({ kind: 'local', path: '/srv/git/project.git' });
    expect(id('file:///srv/git/project.git')).toEqual({ kind: 'local', path: '/srv/git/project.git' });
    expect(sameIdentity(id('/srv/git/p.git'), id('https://srv/git/p.git'))).toBe(false);
  });

  it.each([
    ['ext::sh -c touch% /tmp/x', /ext:: runs a remote helper program/],
    ['fd::3', /fd:: runs a remote helper program/],
    ['http://github.com/o/r', /http:\/\/ is not allowed/],
    ['ftp://h/o/r', /ftp:\/\/ is not allowed/],
    ['https://u:secret@github.com/o/r', /must not carry a password/],
    ['-uhttps://x', /cannot start with "-"/],
    ['/srv/../etc', /no \. or \.\. segments/],
    ['file://host/x', /absolute path/],
    ['https://github.com/o/../r', /no \. or \.\. segments/],
    ['https://github.com/o/r%2F..', /not a repository path/],
    ['repo', /expected "owner\/repo"/],
    ['two words', /no spaces/],
    ['file:///proc/self/cwd%2F..%2F..%2Fsrv%2Fx.git', /no %-escapes/],
  ])('refuses %s', (text, why) => {
    expect(remoteEntryProblem(text)).toMatch(why);
  });
});

describe('remote URLs (what git is given), unlike allow-list entries', () => {
  it('are taken as written: spaces around one are refused (git would not trim them), an entry is trimmed', () => {
    expect(remoteIdentity(' /srv/git/app.git', 'url')).toMatchObject({ problem: expect.stringMatching(/no spaces/) });
    expect(remoteIdentity('/srv/git/app.git\n', 'url')).toMatchObject({ problem: expect.stringMatching(/no spaces or control characters/) });
    expect(remoteIdentity(' /srv/git/app.git ', 'entry')).toEqual({ kind: 'local', path: '/srv/git/app.git' });
  });

  it.each(['me/app', 'github.com/me/app', 'gitlab.example.com/group/app'])('%s is refused: git reads it as a folder here', (url) => {
    expect(remoteIdentity(url, 'url')).toMatchObject({ problem: expect.stringMatching(/as a folder on this computer/) });
    expect(remoteIdentity(url, 'entry')).toMatchObject({ kind: 'hosted' });
  });

  it.each(['https://github.com/me/app', 'git@github.com:me/app.git', 'ssh://git@github.com/me/app', '/srv/git/app.git', 'file:///srv/git/app.git'])(
    '%s is a URL',
    (url) => {
      expect(remoteIdentity(url, 'url')).not.toHaveProperty('problem');
    },
  );
});
