/**
 * Mounted filesystems and their space: the mount table from /proc/self/mounts on Linux (sizes
 * from statfs), the drive letters on Windows (statfs of each root, no PowerShell start-up), `df
 * -kP` elsewhere (it prints the sizes; not the type). statfs on a dead network mount can block for
 * minutes, so each answers within a bound or is reported as not answering.
 */
import { readFile, statfs } from 'node:fs/promises';
import type { DiskEntry, Noted } from '../contract/inventory.js';
import { runOsTool } from '../services/os-tool.js';

/** Kernel and memory filesystems: no disk behind them (left out unless asked). */
export const PSEUDO_TYPES = new Set([
  'proc',
  'sysfs',
  'devtmpfs',
  'devpts',
  'tmpfs',
  'ramfs',
  'cgroup',
  'cgroup2',
  'securityfs',
  'debugfs',
  'tracefs',
  'configfs',
  'fusectl',
  'mqueue',
  'hugetlbfs',
  'pstore',
  'bpf',
  'autofs',
  'binfmt_misc',
  'efivarfs',
  'rpc_pipefs',
  'nsfs',
  'squashfs',
  'selinuxfs',
  'devfs',
  'nullfs',
  'fuse.gvfsd-fuse',
  'fuse.portal',
]);
const STATFS_MS = 2_000;

export async function listDisks(platform: NodeJS.Platform = process.platform): Promise<Noted<DiskEntry[]>> {
  if (platform === 'linux') return { value: await withSizes(parseMounts(await readFile('/proc/self/mounts', 'utf8'))), notes: [] };
  if (platform === 'win32') return { value: await windowsDrives(), notes: ['filesystem type unknown: a drive root does not say it without PowerShell'] };
  const df = await runOsTool('/bin/df', ['-kP'], { operation: 'system.disks', timeoutMs: 20_000 });
  return { value: parseDf(df.stdout), notes: ['filesystem type unknown: df -kP does not print it'] };
}

/** /proc/self/mounts: "device mountpoint type options 0 0", spaces in names as \040. A later mount on the same point hides the earlier. */
export function parseMounts(text: string): DiskEntry[] {
  const byPoint = new Map<string, DiskEntry>();
  for (const line of text.split('\n')) {
    const [device, point, type, options] = line.split(' ').map(unescapeMount);
    if (!device || !point || !type) continue;
    byPoint.delete(point);
    byPoint.set(point, { device, mountPoint: point, type, pseudo: PSEUDO_TYPES.has(type), readOnly: (options ?? '').split(',').includes('ro') });
  }
  return [...byPoint.values()];
}

function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

async function withSizes(disks: DiskEntry[]): Promise<DiskEntry[]> {
  return Promise.all(disks.map(async (disk) => (disk.pseudo ? disk : { ...disk, ...(await sizes(disk.mountPoint)) })));
}

type StatFs = (path: string) => Promise<{ blocks: number; bsize: number; bfree: number; bavail: number }>;

/** Every drive letter whose root answers (a missing letter is ENOENT and left out; a drive that answers with another error is listed with it). */
export async function windowsDrives(stat: StatFs = statfs): Promise<DiskEntry[]> {
  const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
  const drives = await Promise.all(
    letters.map(async (letter) => ({ device: `${letter}:`, mountPoint: `${letter}:\\`, pseudo: false, ...(await sizes(`${letter}:\\`, stat)) })),
  );
  return drives.filter((drive) => drive.error !== 'ENOENT' && drive.error !== 'EINVAL');
}

async function sizes(mountPoint: string, stat: StatFs = statfs): Promise<Partial<DiskEntry>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not answer within ${STATFS_MS} ms`)), STATFS_MS);
  });
  try {
    const s = await Promise.race([stat(mountPoint), late]);
    const total = s.blocks * s.bsize;
    return { totalBytes: total, usedBytes: total - s.bfree * s.bsize, availableBytes: s.bavail * s.bsize };
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** `df -kP`: "Filesystem 1024-blocks Used Available Capacity Mounted on"; names may hold spaces ("map auto_home"). */
export function parseDf(text: string): DiskEntry[] {
  const disks: DiskEntry[] = [];
  for (const line of text.split('\n').slice(1)) {
    const m = /^(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+(\/.*)$/.exec(line.trimEnd());
    if (!m) continue;
    const device = m[1] as string;
    disks.push({
      device,
      mountPoint: m[5] as string,
      pseudo: device === 'devfs' || device.startsWith('map '),
      totalBytes: Number(m[2]) * 1024,
      usedBytes: Number(m[3]) * 1024,
      availableBytes: Number(m[4]) * 1024,
    });
  }
  return disks;
}
