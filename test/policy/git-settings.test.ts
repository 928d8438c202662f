import { describe, expect, it } from 'vitest';
import type { GitConfigEntry } from '../../adapter/contract/git.js';
import { firstRefused, ownerValue, refusedReason, repositoryFiles } from '../../main/policy/git-settings.js';

const entry = (key: string, value: string | null, scope: GitConfigEntry['scope'] = 'local'): GitConfigEntry => ({
  scope,
  origin: 'file:.git/config',
  key,
  value,
});

describe('refused repository settings', () => {
  it.each([
    ['core.hookspath', '.husky'],
    ['core.fsmonitor', '/tmp/x.sh'],
    ['core.pager', 'less'],
    ['pager.log', 'evil'],
    ['core.editor', 'vim'],
    ['sequence.editor', 'x'],
    ['core.askpass', 'x'],
    ['core.sshcommand', 'ssh -o ProxyCommand=x'],
    ['core.gitproxy', 'x'],
    ['core.alternaterefscommand', 'x'],
    ['diff.external', 'x'],
    ['diff.any.textconv', 'x'],
    ['diff.any.command', 'x'],
    ['difftool.any.cmd', 'x'],
    ['mergetool.any.cmd', 'x'],
    ['merge.any.driver', 'x'],
    ['filter.lfs.clean', 'x'],
    ['filter.lfs.smudge', 'x'],
    ['filter.lfs.process', 'x'],
    ['credential.helper', 'store'],
    ['credential.https://example.com.helper', 'x'],
    ['gpg.program', 'x'],
    ['gpg.ssh.program', 'x'],
    ['gpg.ssh.defaultkeycommand', 'x'],
    ['alias.st', 'status'],
    ['remote.origin.uploadpack', 'x'],
    ['remote.origin.receivepack', 'x'],
    ['remote.origin.vcs', 'x'],
    ['remote.origin.proxy', 'http://p'],
    ['http.proxy', 'http://p'],
    ['http.cookiefile', '/tmp/c'],
    ['url.ext::sh.insteadof', 'https://'],
    ['url.x.pushinsteadof', 'y'],
    ['protocol.ext.allow', 'always'],
    ['protocol.allow', 'always'],
    ['remote.x.url', 'ext::sh -c x'],
    ['remote.x.pushurl', 'fd::3'],
    ['submodule.m.update', '!rm -rf /'],
  ])('%s', (key, value) => {
    expect(refusedReason({ key, value })).toEqual(expect.any(String));
  });

  it.each([
    ['core.fsmonitor', 'false'],
    ['core.fsmonitor', 'true'],
    ['pager.log', 'false'],
    ['core.bare', null],
    ['user.name', 'x'],
    ['include.path', '../x'],
    ['remote.origin.url', 'https://github.com/o/r'],
    ['filter.lfs.required', 'true'],
    ['credential.username', 'me'],
    ['submodule.m.update', 'rebase'],
    ['core.worktree', '/elsewhere'],
  ])('%s = %s is allowed', (key, value) => {
    expect(refusedReason({ key, value })).toBeNull();
  });

  it("looks only at the repository's own scopes; the owner's global settings are theirs", () => {
    expect(firstRefused([entry('credential.helper', 'osxkeychain', 'global'), entry('core.fsmonitor', 'x', 'system'), entry('user.name', 'x')])).toBeNull();
    expect(firstRefused([entry('user.name', 'x'), entry('core.fsmonitor', 'x', 'worktree')])?.entry.key).toBe('core.fsmonitor');
    expect(ownerValue([entry('core.hookspath', '/mine', 'global'), entry('core.hookspath', '.husky')], 'core.hookspath')).toBe('/mine');
    expect(ownerValue([entry('core.hookspath', '.husky')], 'core.hookspath')).toBeUndefined();
  });
});

describe('http settings', () => {
  it.each(['http.curloptresolve', 'http.sslverify', 'http.https://github.com.extraheader', 'http.sslcainfo', 'http.followredirects'])(
    '%s is refused',
    (key) => {
      expect(refusedReason({ key, value: 'x' })).toMatch(/HTTPS remotes/);
    },
  );
});

describe('repositoryFiles', () => {
  const withOrigin = (key: string, value: string, origin: string, scope: GitConfigEntry['scope'] = 'local'): GitConfigEntry => ({ scope, origin, key, value });

  it('lists included config files and file settings of the repository, resolved as git does', () => {
    const files = repositoryFiles(
      [
        withOrigin('include.path', '../../out/inc', 'file:.git/config'),
        withOrigin('user.name', 'x', 'file:.git/../../out/inc'),
        withOrigin('mailmap.file', '~/mailmap', 'file:.git/config'),
        withOrigin('core.excludesfile', 'ignore.txt', 'file:.git/config'),
        withOrigin('diff.orderfile', '~other/order', 'file:.git/config'),
        withOrigin('core.attributesfile', '/etc/attrs', 'file:/home/me/.gitconfig', 'global'),
      ],
      '/w/repo',
      '/home/me',
    );
    expect(files.map(({ entry, file, included }) => [entry.key, file, included])).toEqual([
      ['include.path', '/w/repo/.git/config', true],
      ['user.name', '/w/out/inc', true],
      ['mailmap.file', '/home/me/mailmap', false],
      ['core.excludesfile', '/w/repo/ignore.txt', false],
      ['diff.orderfile', '~other/order', false],
    ]);
  });
});
