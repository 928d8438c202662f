/**
 * Which calls a walk makes: synchronous on local disks, through the thread pool where a network
 * or FUSE mount is at, above or below where it starts (a hung mount must not stop the server).
 */
import { describe, expect, it } from 'vitest';
import { entryCallsFor, slowMountPoints } from '../../../../adapter/fs/search/entry-calls.js';

/** /proc/self/mountinfo lines: id, parent, dev, root, mount point, options, optional fields, "-", type, source, options. */
const line = (point: string, type: string, optional = 'shared:1') => `36 25 0:42 / ${point} rw,relatime ${optional} - ${type} src rw`;
const MOUNTS = [
  line('/', 'ext4'),
  line('/home', 'ext4', ''),
  line('/mnt/nfs', 'nfs4'),
  line('/home/alex/remote\\040drive', 'fuse.sshfs'),
  line('/media/win', 'fuseblk', 'master:3 propagate_from:1'),
  line('/proc', 'proc'),
  line('/var/lib/docker/overlay2/x/merged', 'overlay'),
  line('/home/alex/net', 'autofs'),
  line('/mnt/host', 'virtiofs'),
].join('\n');

describe('slowMountPoints', () => {
  it('lists every mount of a type not known to be local (network, FUSE, automount, shared from a host), with escapes restored', () => {
    expect(slowMountPoints(MOUNTS)).toEqual(['/mnt/nfs', '/home/alex/remote drive', '/media/win', '/home/alex/net', '/mnt/host']);
  });

  it('ignores lines it cannot read', () => {
    expect(slowMountPoints('garbage\n\n1 2 3 - nfs')).toEqual([]);
  });
});

describe('entryCallsFor', () => {
  const kind = (start: string, text: string | null = MOUNTS) => entryCallsFor(start, () => text).kind;

  it('is synchronous on a local disk, even with a network mount elsewhere or with a similar name', () => {
    expect(kind('/home/alex/projects')).toBe('sync');
    expect(kind('/mnt/nfs2')).toBe('sync');
    expect(kind('/home/alex/remote')).toBe('sync');
  });

  it('goes through the thread pool inside a network or FUSE mount, or when one is below the start', () => {
    expect(kind('/mnt/nfs')).toBe('pool');
    expect(kind('/mnt/nfs/data/src')).toBe('pool');
    expect(kind('/home/alex')).toBe('pool'); // the sshfs and autofs mounts are inside
    expect(kind('/mnt/host/src')).toBe('pool');
    expect(kind('/')).toBe('pool');
    expect(kind('/srv', line('/', 'nfs'))).toBe('pool'); // a diskless machine
  });

  it('goes through the thread pool where the mounts cannot be listed (macOS, Windows, no /proc)', () => {
    expect(kind('/home/alex/projects', null)).toBe('pool');
  });
});
