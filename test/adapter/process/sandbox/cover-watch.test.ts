/** Which changes outside a running sandbox take a cover off (a rename over it, a removal), and which do not (a write into it, bwrap making a missing one). */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchCovers } from '../../../../adapter/process/sandbox/cover-watch.js';
import { guardPlan } from '../../../../adapter/process/sandbox/guard-plan.js';
import type { SandboxPlan } from '../../../../adapter/contract/sandbox.js';
import { bubblewrapPlan } from '../../../helpers/sandbox-fixtures.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function repository() {
  const root = fs.realpathSync(makeTempDir());
  dirs.push(root);
  const git = path.join(root, 'proj', '.git');
  fs.mkdirSync(path.join(git, 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(git, 'config'), '[core]\n');
  const plan = bubblewrapPlan([
    { path: root, access: 'write', kind: 'directory' },
    { path: git, access: 'write', kind: 'directory', pinned: true },
    { path: path.join(git, 'hooks'), access: 'read', kind: 'directory' },
    { path: path.join(git, 'config'), access: 'read', kind: 'file' },
    { path: path.join(git, 'info'), access: 'hidden', kind: 'directory' },
  ]);
  return { git, plan };
}

/** What `watchCovers` reported after `change` ran (inotify events arrive on the event loop). */
async function lostAfter(plan: SandboxPlan, change: () => void): Promise<string[]> {
  const lost: string[] = [];
  const stop = watchCovers(plan, guardPlan(plan), (place) => lost.push(place));
  change();
  await new Promise((resolve) => setTimeout(resolve, 150));
  stop();
  return lost;
}

describe.runIf(process.platform === 'linux')('watchCovers', () => {
  it('reports a covered file something renamed a new one over (as git config does), once', async () => {
    const { git, plan } = repository();
    const lost = await lostAfter(plan, () => {
      for (const n of [1, 2]) {
        fs.writeFileSync(path.join(git, 'config.lock'), `[core]\n# ${n}\n`);
        fs.renameSync(path.join(git, 'config.lock'), path.join(git, 'config'));
      }
    });
    expect(lost).toEqual([path.join(git, 'config')]);
  });

  it('reports a covered folder removed', async () => {
    const { git, plan } = repository();
    expect(await lostAfter(plan, () => fs.rmSync(path.join(git, 'hooks'), { recursive: true }))).toEqual([path.join(git, 'hooks')]);
  });

  it('lets a write into a covered file, a new file beside it, and a missing one first made (bwrap makes those) pass', async () => {
    const { git, plan } = repository();
    const lost = await lostAfter(plan, () => {
      fs.appendFileSync(path.join(git, 'config'), '# a note\n');
      fs.writeFileSync(path.join(git, 'config.lock'), '');
      fs.mkdirSync(path.join(git, 'info'));
    });
    expect(lost).toEqual([]);
  });

  it('lets the folder holding the covers, or one above it, be moved (their mounts go with it), even a .git folder, which covers a .git of its own', async () => {
    const { git, plan } = repository();
    // A .git folder covers a .git of its own (where git serving it as a remote looks first): named as the folder itself.
    const covered = bubblewrapPlan([...plan.entries, { path: path.join(git, '.git'), access: 'hidden', kind: 'directory' }]);
    fs.mkdirSync(path.join(git, '.git'));
    const proj = path.dirname(git);
    const lost = await lostAfter(covered, () => {
      fs.renameSync(git, `${git}-away`);
      fs.renameSync(`${git}-away`, git);
      fs.renameSync(proj, `${proj}-moved`);
      fs.renameSync(`${proj}-moved`, proj);
    });
    expect(lost).toEqual([]);
    // The same folder's own .git taken away is reported.
    expect(await lostAfter(covered, () => fs.rmdirSync(path.join(git, '.git')))).toEqual([path.join(git, '.git')]);
  });

  it("lets a sandbox started at once with another pass the event of the other's bwrap making a place this one found made (the events of a folder go to every watcher of it)", async () => {
    const { git, plan } = repository();
    const info = path.join(git, 'info');
    const lost: string[][] = [[], []];
    const first = watchCovers(plan, guardPlan(plan), (place) => lost[0]!.push(place));
    // The first one's bwrap makes the missing place; the second starts before the event is read.
    fs.mkdirSync(info);
    const second = watchCovers(plan, guardPlan(plan), (place) => lost[1]!.push(place));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(lost).toEqual([[], []]);
    // Taken away after both began: both report it.
    fs.rmdirSync(info);
    await new Promise((resolve) => setTimeout(resolve, 150));
    first();
    second();
    expect(lost).toEqual([[info], [info]]);
  });

  it('reports a missing one replaced after it was first made, and one removed and made again (the same inode, often)', async () => {
    const { git, plan } = repository();
    const info = path.join(git, 'info');
    expect(
      await lostAfter(plan, () => {
        fs.mkdirSync(info);
        fs.rmdirSync(info);
      }),
    ).toEqual([info]);
    expect(
      await lostAfter(plan, () => {
        fs.rmSync(path.join(git, 'hooks'), { recursive: true });
        fs.mkdirSync(path.join(git, 'hooks'));
      }),
    ).toEqual([path.join(git, 'hooks')]);
  });
});
