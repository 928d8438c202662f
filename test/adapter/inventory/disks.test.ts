/** Filesystems: /proc/self/mounts and df -kP parsed from samples; statfs on this machine's /. */
import { describe, expect, it } from 'vitest';
import { listDisks, parseDf, parseMounts, windowsDrives } from '../../../adapter/inventory/disks.js';

const MOUNTS = `/dev/nvme0n1p2 / ext4 rw,relatime 0 0
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
tmpfs /run tmpfs rw,nosuid,nodev,size=3264500k,mode=755 0 0
/dev/sdb1 /media/owner/My\\040Disk vfat ro,nosuid,nodev 0 0
/dev/loop3 /snap/core/1 squashfs ro,nodev,relatime 0 0
/dev/sdc1 /mnt ext4 rw 0 0
/dev/sdd1 /mnt xfs rw 0 0
`;
// macOS 14 df -kP.
const DF = `Filesystem     1024-blocks      Used Available Capacity  Mounted on
/dev/disk3s1s1   482797652  10240456  93432020    10%    /
devfs                  205       205         0   100%    /dev
/dev/disk3s5     482797652 374382508  93432020    81%    /System/Volumes/Data
map auto_home            0         0         0   100%    /System/Volumes/Data/home
/dev/disk5s1        975872    512000    463872    53%    /Volumes/My Stick
`;

describe('parseMounts', () => {
  it('reads device, mount point, type and read-only, unescapes spaces, marks pseudo filesystems', () => {
    const disks = parseMounts(MOUNTS);
    expect(disks.find((d) => d.mountPoint === '/')).toEqual({ device: '/dev/nvme0n1p2', mountPoint: '/', type: 'ext4', pseudo: false, readOnly: false });
    expect(disks.find((d) => d.device === '/dev/sdb1')).toMatchObject({ mountPoint: '/media/owner/My Disk', readOnly: true });
    expect(disks.filter((d) => d.pseudo).map((d) => d.type)).toEqual(['proc', 'tmpfs', 'squashfs']);
  });

  it('keeps the last mount on a point (it hides the ones below)', () => {
    expect(parseMounts(MOUNTS).filter((d) => d.mountPoint === '/mnt')).toEqual([expect.objectContaining({ device: '/dev/sdd1', type: 'xfs' })]);
  });
});

describe('parseDf', () => {
  it('reads sizes in KiB, names and mount points with spaces', () => {
    const disks = parseDf(DF);
    expect(disks[0]).toEqual({
      device: '/dev/disk3s1s1',
      mountPoint: '/',
      pseudo: false,
      totalBytes: 482797652 * 1024,
      usedBytes: 10240456 * 1024,
      availableBytes: 93432020 * 1024,
    });
    expect(disks.find((d) => d.mountPoint === '/Volumes/My Stick')?.device).toBe('/dev/disk5s1');
    expect(disks.filter((d) => d.pseudo).map((d) => d.device)).toEqual(['devfs', 'map auto_home']);
  });
});

describe('windowsDrives', () => {
  // Windows cannot run here: statfs answers as Node's does there (GetDiskFreeSpaceExW), ENOENT for a letter with no drive.
  const GiB = 1024 ** 3;
  const stat = (root: string) => {
    if (root === 'C:\\') return Promise.resolve({ blocks: 250 * 1024 ** 2, bsize: 4096, bfree: 100 * 1024 ** 2, bavail: 90 * 1024 ** 2 });
    if (root === 'Z:\\') return new Promise<never>(() => {}); // a network drive whose server is gone
    if (root === 'D:\\') return Promise.reject(Object.assign(new Error('EBUSY'), { code: 'EBUSY' })); // a card reader with no card
    return Promise.reject(Object.assign(new Error('no such file'), { code: 'ENOENT' }));
  };

  it('lists the letters that have a drive, with sizes, and a drive that does not answer within the bound', async () => {
    const started = Date.now();
    const drives = await windowsDrives(stat);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(drives.map((d) => d.device)).toEqual(['C:', 'D:', 'Z:']);
    expect(drives[0]).toEqual({ device: 'C:', mountPoint: 'C:\\', pseudo: false, totalBytes: 1000 * GiB, usedBytes: 600 * GiB, availableBytes: 360 * GiB });
    expect(drives[1]).toMatchObject({ device: 'D:', error: 'EBUSY' });
    expect(drives[2]!.error).toMatch(/did not answer within 2000 ms/);
  });
});

describe.skipIf(process.platform === 'win32')('listDisks on this machine', () => {
  it('lists / with its size from statfs', async () => {
    const { value } = await listDisks();
    const root = value.find((d) => d.mountPoint === '/');
    expect(root?.totalBytes).toBeGreaterThan(0);
    expect(root!.availableBytes).toBeLessThanOrEqual(root!.totalBytes!);
    expect(root!.usedBytes).toBeGreaterThanOrEqual(0);
  });
});
