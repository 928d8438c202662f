/**
 * A JXA script as `osascript -l JavaScript` loads it, checked on any system: it parses, and its
 * top level (runJxa's prelude and ObjC.import lines only) defines `run(argv)`. V8 parses what JavaScriptCore does for
 * the ES5 our scripts are written in; nothing of the ObjC bridge runs here.
 */
import vm from 'node:vm';
import { jxaSource } from '../../adapter/desktop/darwin/jxa.js';

export function jxaDefinesRun(script: string): boolean {
  const context = vm.createContext({ ObjC: { import: (framework: string) => framework } });
  vm.runInContext(jxaSource(script), context, { timeout: 1000 });
  return typeof (context as { run?: unknown }).run === 'function';
}
