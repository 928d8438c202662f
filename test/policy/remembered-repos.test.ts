/**
 * The sandbox's memory of the repositories it found: first found, first listed; bounded; what a
 * plan finds gone is forgotten, but not while the fs tools move something, and a move carries
 * what it holds to its new place.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REPOS_REMEMBERED, RememberedRepositories } from '../../main/policy/remembered-repos.js';

const R = '/home/alex/code';

function memory(...folders: string[]) {
  const remembered = new RememberedRepositories();
  for (const folder of folders) remembered.add(folder);
  return remembered;
}

describe('RememberedRepositories', () => {
  it(`lists in the order found, each once, at most ${MAX_REPOS_REMEMBERED}`, () => {
    const remembered = memory(`${R}/b/.git`, `${R}/a/.git`, `${R}/b/.git`);
    expect(remembered.list()).toEqual([`${R}/b/.git`, `${R}/a/.git`]);
    for (let i = 0; i < MAX_REPOS_REMEMBERED + 10; i++) remembered.add(`${R}/r${i}/.git`);
    expect(remembered.list()).toHaveLength(MAX_REPOS_REMEMBERED);
    expect(remembered.list()[0]).toBe(`${R}/b/.git`);
  });

  it('a move puts the new places of what it holds right after the old ones, and no others', async () => {
    const remembered = memory(`${R}/a/tool/.git`, `${R}/ab/other/.git`, `${R}/a/.git`, `${R}/z/.git`);
    await remembered.move(`${R}/a`, `${R}/deep/x/y/a`, async () => undefined);
    expect(remembered.list()).toEqual([
      `${R}/a/tool/.git`,
      `${R}/deep/x/y/a/tool/.git`,
      `${R}/ab/other/.git`,
      `${R}/a/.git`,
      `${R}/deep/x/y/a/.git`,
      `${R}/z/.git`,
    ]);
  });

  it('forgets what a plan found gone, except while a move runs (a plan in the middle sees neither place)', async () => {
    const remembered = memory(`${R}/a/.git`);
    let finish!: () => void;
    const moving = remembered.move(`${R}/a`, `${R}/b`, () => new Promise<void>((resolve) => (finish = resolve)));
    remembered.forget(`${R}/a/.git`);
    remembered.forget(`${R}/b/.git`);
    expect(remembered.list()).toEqual([`${R}/a/.git`, `${R}/b/.git`]);
    finish();
    await moving;
    remembered.forget(`${R}/a/.git`);
    expect(remembered.list()).toEqual([`${R}/b/.git`]);
  });

  it('a move of a full memory keeps every new place past the bound, and the next plan brings it back under', async () => {
    const remembered = new RememberedRepositories();
    for (let i = 0; i < MAX_REPOS_REMEMBERED; i++) remembered.add(`${R}/a/r${i}/.git`);
    await remembered.move(`${R}/a`, `${R}/b`, async () => undefined);
    expect(remembered.list()).toHaveLength(2 * MAX_REPOS_REMEMBERED);
    expect(remembered.list().at(-1)).toBe(`${R}/b/r${MAX_REPOS_REMEMBERED - 1}/.git`);
    for (let i = 0; i < MAX_REPOS_REMEMBERED; i++) remembered.forget(`${R}/a/r${i}/.git`);
    expect(remembered.list()).toHaveLength(MAX_REPOS_REMEMBERED);
    remembered.add(`${R}/c/.git`);
    expect(remembered.list()).not.toContain(`${R}/c/.git`);
  });

  it('ends the move when it fails too, and passes the failure on', async () => {
    const remembered = memory(`${R}/a/.git`);
    await expect(remembered.move(`${R}/a`, `${R}/b`, async () => Promise.reject(new Error('EXDEV')))).rejects.toThrow('EXDEV');
    remembered.forget(`${R}/b/.git`);
    expect(remembered.list()).toEqual([`${R}/a/.git`]);
  });

  describe('with holds (PolicyPort.holdPlace), which say where each is now', () => {
    /** Holds on paths of a pretend filesystem; `rename` moves what they hold, as the kernel's descriptors follow a rename. */
    function filesystem(...present: string[]) {
      const paths = new Set(present);
      const holds: Array<{ at: string | null; released: boolean }> = [];
      return {
        holds,
        hold: (place: string) => {
          if (!paths.has(place)) return null;
          const hold = { at: place as string | null, released: false };
          holds.push(hold);
          return { where: () => hold.at, release: () => void (hold.released = true) };
        },
        rename(from: string, to: string) {
          for (const hold of holds) if (hold.at?.startsWith(`${from}/`)) hold.at = to + hold.at.slice(from.length);
          for (const path of [...paths]) {
            if (!path.startsWith(`${from}/`)) continue;
            paths.delete(path);
            paths.add(to + path.slice(from.length));
          }
        },
        remove: (place: string) => holds.forEach((hold) => hold.at === place && (hold.at = null)),
      };
    }

    it('lists each where it is now: a folder above renamed away (by a program the model started) is followed, in its turn', () => {
      const fs = filesystem(`${R}/a/.git`, `${R}/d/proj/.git`, `${R}/z/.git`);
      const remembered = new RememberedRepositories(fs.hold);
      for (const place of [`${R}/a/.git`, `${R}/d/proj/.git`, `${R}/z/.git`]) remembered.add(place);
      fs.rename(`${R}/d`, `${R}/t/deeper/still`);
      expect(remembered.list()).toEqual([`${R}/a/.git`, `${R}/t/deeper/still/proj/.git`, `${R}/z/.git`]);
      fs.rename(`${R}/t/deeper/still`, `${R}/d`);
      expect(remembered.list()).toEqual([`${R}/a/.git`, `${R}/d/proj/.git`, `${R}/z/.git`]);
    });

    it("keeps one of a move's two places once the move is done, with its hold; one removed is listed where it was, for the plan to forget, which releases it", async () => {
      const fs = filesystem(`${R}/a/.git`, `${R}/b/.git`);
      const remembered = new RememberedRepositories(fs.hold);
      remembered.add(`${R}/a/.git`);
      remembered.add(`${R}/b/.git`);
      await remembered.move(`${R}/a`, `${R}/c`, async () => fs.rename(`${R}/a`, `${R}/c`));
      expect(remembered.list()).toEqual([`${R}/c/.git`, `${R}/b/.git`]);
      // One whose hold still finds it is not forgotten (a plan looked while a folder above was renamed).
      remembered.forget(`${R}/b/.git`);
      expect(remembered.list()).toEqual([`${R}/c/.git`, `${R}/b/.git`]);
      expect(new Map(remembered.held()).get(`${R}/b/.git`)?.where()).toBe(`${R}/b/.git`);
      fs.remove(`${R}/b/.git`);
      expect(remembered.list()).toEqual([`${R}/c/.git`, `${R}/b/.git`]);
      remembered.forget(`${R}/b/.git`);
      expect(remembered.list()).toEqual([`${R}/c/.git`]);
      expect(fs.holds.map((hold) => hold.released)).toEqual([false, true]);
    });

    it('a hold a plan was given still answers after another plan listed the places anew, merging two on one repository', () => {
      const fs = filesystem(`${R}/a/.git`);
      const remembered = new RememberedRepositories(fs.hold);
      remembered.add(`${R}/a/.git`);
      const given = remembered.held()[0]![1]!;
      fs.rename(`${R}/a`, `${R}/b`);
      // The walk of another plan finds it under its new name before a list: two holds on it, merged by the next.
      remembered.add(`${R}/b/.git`);
      expect(remembered.list()).toEqual([`${R}/b/.git`]);
      expect(given.where()).toBe(`${R}/b/.git`);
      expect(fs.holds.map((hold) => hold.released)).toEqual([false, false]);
    });
  });
});
