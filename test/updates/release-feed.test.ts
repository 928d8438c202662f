import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { feedFileName, githubRepository, releaseFeed } from '../../main/updates/release-feed.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

describe('where releases come from', () => {
  it.each([
    ['https://github.com/acme/chatgpt-computer-mcp', 'acme/chatgpt-computer-mcp'],
    ['git+https://github.com/acme/tool.git', 'acme/tool'],
    ['git@github.com:acme/tool.git', 'acme/tool'],
    ['github:acme/tool', 'acme/tool'],
    ['acme/tool', 'acme/tool'],
  ])('%s -> %s', (url, repo) => {
    expect(githubRepository(url)).toBe(repo);
    expect(githubRepository({ type: 'git', url })).toBe(repo);
  });

  it.each(['https://gitlab.com/acme/tool', 'https://github.com/acme', 'https://github.com/acme/tool/../../evil', '', null, 42])(
    '%s is no GitHub repository',
    (value) => {
      expect(githubRepository(value)).toBeNull();
    },
  );

  it('names the metadata electron-builder publishes for each OS', () => {
    expect([feedFileName('linux'), feedFileName('darwin'), feedFileName('win32')]).toEqual(['latest-linux.yml', 'latest-mac.yml', 'latest.yml']);
  });

  describe('from the package.json of this build', () => {
    let dir: string;
    beforeEach(() => (dir = makeTempDir('feed-')));
    afterEach(() => removeDir(dir));
    const module = () => pathToFileURL(path.join(dir, 'out', 'main', 'chunk.js')).href;

    it('the latest release of the repository it names', () => {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'chatgpt-computer-mcp', repository: 'https://github.com/acme/tool' }));
      expect(releaseFeed('linux', module())).toBe('https://github.com/acme/tool/releases/latest/download/latest-linux.yml');
    });

    it('none when it names no repository: never a guess', () => {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'chatgpt-computer-mcp' }));
      expect(releaseFeed('linux', module())).toBeNull();
    });
  });
});
