/** `~` spellings as a shell reads them, which the deny list, the sandbox's visible folders, git's config files and upstream path arguments share. */
import { describe, expect, it } from 'vitest';
import { inHome, namesUserHome, startsInHome } from '../../main/policy/home-path.js';

describe('home-path', () => {
  it('expands ~ and ~/x from the home folder, and nothing else', () => {
    expect(inHome('~', '/home/alex')).toBe('/home/alex');
    expect(inHome('~/', '/home/alex')).toBe('/home/alex');
    expect(inHome('~/work/../.ssh', '/home/alex')).toBe('/home/alex/.ssh');
    expect(inHome('~alex/x', '/home/alex')).toBeNull();
    expect(inHome('~$budget.docx', '/home/alex')).toBeNull();
    expect(inHome('/abs/~/x', '/home/alex')).toBeNull();
    expect(inHome('x/~', '/home/alex')).toBeNull();
  });

  it('takes ~\\x on Windows only', () => {
    expect(inHome('~\\Documents', 'C:\\Users\\alex', true)).toBe('C:\\Users\\alex\\Documents');
    expect(startsInHome('~\\Documents')).toBe(false);
    expect(startsInHome('~\\Documents', true)).toBe(true);
  });

  it("tells another user's home from a name that starts with ~", () => {
    expect(namesUserHome('~alex/notes')).toBe(true);
    expect(namesUserHome('~alex\\notes')).toBe(true);
    expect(namesUserHome('~$budget.docx')).toBe(false);
    expect(namesUserHome('~/notes')).toBe(false);
    expect(namesUserHome('~')).toBe(false);
  });
});
