import { describe, expect, it } from 'vitest';
import { parseDarwinPs, PS_ARGS_QUERY, PS_COMM_QUERY } from '../../../adapter/process/list-darwin.js';

// Captured shape of macOS 14 `ps -axww -o pid=,ppid=,user=,args=` and `ps -axww -o pid=,comm=`:
// right-aligned numbers, a padded user column, comm as the executable's full path.
const ARGS_OUTPUT = [
  '    1     0 root             /sbin/launchd',
  '  101     1 root             /usr/libexec/logd',
  '  158     1 _windowserver    /System/Library/PrivateFrameworks/SkyLight.framework/Resources/WindowServer -daemon',
  '  612     1 alice            /Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '  655   612 alice            /Applications/Google Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Versions/126.0.6478.127/Helpers/Google Chrome Helper (Renderer).app/Contents/MacOS/Google Chrome Helper (Renderer) --type=renderer --lang=en-US --num-raster-threads=4',
  '  702   700 alice            -zsh',
  '  733   702 alice            node /Users/alice/My Projects/server.js --port 3000',
  ' 8812   702 alice            /bin/ps -axww -o pid=,ppid=,user=,args=',
  '99999     1 alice            started-after-the-comm-call',
  '',
].join('\n');

const COMM_OUTPUT = [
  '    1 /sbin/launchd',
  '  101 /usr/libexec/logd',
  '  158 /System/Library/PrivateFrameworks/SkyLight.framework/Resources/WindowServer',
  '  612 /Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '  655 /Applications/Google Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Versions/126.0.6478.127/Helpers/Google Chrome Helper (Renderer).app/Contents/MacOS/Google Chrome Helper (Renderer)',
  '  702 -zsh',
  '  733 /usr/local/bin/node',
  ' 8812 /bin/ps',
  '',
].join('\n');

describe('parseDarwinPs', () => {
  const list = parseDarwinPs(ARGS_OUTPUT, COMM_OUTPUT);
  const byPid = (pid: number) => list.find((p) => p.pid === pid);

  it('reads pid, ppid and user, and names the command by the basename of comm', () => {
    expect(byPid(1)).toEqual({ pid: 1, ppid: 0, user: 'root', command: 'launchd', args: ['/sbin/launchd'] });
    expect(byPid(158)).toEqual({
      pid: 158,
      ppid: 1,
      user: '_windowserver',
      command: 'WindowServer',
      args: ['/System/Library/PrivateFrameworks/SkyLight.framework/Resources/WindowServer', '-daemon'],
    });
  });

  it('keeps an executable path with spaces whole as argv[0]', () => {
    expect(byPid(612)).toMatchObject({ command: 'Google Chrome', args: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'] });
    const helper = byPid(655);
    expect(helper?.command).toBe('Google Chrome Helper (Renderer)');
    expect(helper?.args[0]).toMatch(/\/Google Chrome Helper \(Renderer\)$/);
    expect(helper?.args.slice(1)).toEqual(['--type=renderer', '--lang=en-US', '--num-raster-threads=4']);
  });

  it('splits on whitespace when argv[0] is not the executable path (documented loss)', () => {
    expect(byPid(702)).toMatchObject({ command: '-zsh', args: ['-zsh'] });
    expect(byPid(733)).toMatchObject({ command: 'node', args: ['node', '/Users/alice/My', 'Projects/server.js', '--port', '3000'] });
  });

  it('skips processes seen by only one of the two ps calls, and junk lines', () => {
    expect(byPid(99999)).toBeUndefined();
    expect(parseDarwinPs('not a ps line\n\n', COMM_OUTPUT)).toEqual([]);
    expect(parseDarwinPs('', '')).toEqual([]);
  });

  it('returns processes sorted by pid', () => {
    expect(list.map((p) => p.pid)).toEqual([1, 101, 158, 612, 655, 702, 733, 8812]);
  });

  it('queries ps so that the free-text column is always last', () => {
    expect(PS_ARGS_QUERY.at(-1)).toMatch(/,args=$/);
    expect(PS_COMM_QUERY.at(-1)).toMatch(/,comm=$/);
  });
});
