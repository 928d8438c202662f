/** A real window with a button on macOS (the workflow's runner), for the window and AX tests. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { makeTempDir, removeDir } from './temp.js';

/** A Cocoa app in JXA: a window titled argv[0] at (200, 200) points from the bottom left, a button "Press me" that writes `pressed` to argv[1]. */
const WINDOW_SCRIPT = String.raw`
ObjC.import('Cocoa');
function run(argv) {
  var title = argv[0], mark = argv[1];
  var app = $.NSApplication.sharedApplication;
  app.setActivationPolicy($.NSApplicationActivationPolicyRegular);
  ObjC.registerSubclass({ name: 'ChatgptMcpTestTarget', methods: { 'pressed:': { types: ['void', ['id']], implementation: function (sender) {
    $('pressed').writeToFileAtomicallyEncodingError(mark, true, $.NSUTF8StringEncoding, null);
  } } } });
  var win = $.NSWindow.alloc.initWithContentRectStyleMaskBackingDefer($.NSMakeRect(200, 200, 500, 300), 15, $.NSBackingStoreBuffered, false);
  win.title = title;
  win.releasedWhenClosed = false;
  var button = $.NSButton.alloc.initWithFrame($.NSMakeRect(20, 200, 120, 40));
  button.title = 'Press me';
  button.bezelStyle = $.NSBezelStyleRounded;
  var target = $.ChatgptMcpTestTarget.alloc.init; // held here: a control's target is a weak reference
  button.target = target;
  button.action = 'pressed:';
  win.contentView.addSubview(button);
  win.makeKeyAndOrderFront(null);
  app.activateIgnoringOtherApps(true);
  app.run;
}`;

export function showMacWindow(title: string, mark: string): ChildProcess {
  return spawn('/usr/bin/osascript', ['-l', 'JavaScript', '-e', WINDOW_SCRIPT, title, mark], { stdio: 'ignore' });
}

/** Why System Events cannot be driven here (no Accessibility grant for this process), or undefined when it can. */
export function macAccessibilityProblem(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/osascript',
      ['-l', 'JavaScript', '-e', "Application('System Events').processes.whose({ frontmost: true })[0].windows().length"],
      { timeout: 30_000 },
      (error, _stdout, stderr) => resolve(error ? String(stderr || error.message).trim() : undefined),
    );
  });
}

export interface MacWindow {
  /** Where the button writes `pressed`. */
  mark: string;
  app: ChildProcess;
  /** Why System Events cannot be driven here, or undefined. */
  problem: string | undefined;
}

/** For the describe it is called in: a real window titled `title`, shown before its tests and gone after. */
export function useMacWindow(title: string): MacWindow {
  const state = {} as MacWindow;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = makeTempDir('mac-window-');
    state.mark = path.join(dir, 'mark');
    state.problem = await macAccessibilityProblem();
    state.app = showMacWindow(title, state.mark);
  }, 60_000);
  afterAll(() => {
    state.app?.kill();
    if (dir) removeDir(dir);
  });
  return state;
}
