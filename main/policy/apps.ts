/**
 * Which applications app.launch and app.close may act on: only those the owner configured in
 * `desktop.apps`, with their fixed arguments, plus extra arguments only where the app allows
 * them. Built once per config.
 */
import { adapterError } from '../../adapter/contract/errors.js';
import type { AppSpec } from '../../adapter/contract/apps.js';
import type { Config } from '../config/schema.js';

export class AppPolicy {
  private readonly names: string;

  constructor(private readonly config: Readonly<Pick<Config, 'desktop'>>) {
    const names = Object.keys(config.desktop.apps);
    this.names = names.length ? names.join(', ') : 'none';
  }

  /** The executable and argv to start for `name`, or NOT_FOUND / INVALID_INPUT saying what is allowed. */
  launch(name: string, extraArgs: readonly string[] = []): AppSpec {
    const app = this.configured(name, 'app.launch');
    if (extraArgs.length && !app.allowExtraArgs) {
      throw adapterError(
        'INVALID_INPUT',
        'app.launch',
        `app "${name}" does not accept extra args (desktop.apps.${name}.allowExtraArgs is false); call it without args`,
      );
    }
    return { path: app.path, args: [...app.args, ...extraArgs] };
  }

  /** The executable and fixed args whose processes app.close may end. */
  close(name: string): AppSpec {
    const app = this.configured(name, 'app.close');
    return { path: app.path, args: [...app.args] };
  }

  private configured(name: string, operation: string) {
    const apps = this.config.desktop.apps;
    if (!Object.hasOwn(apps, name)) {
      throw adapterError('NOT_FOUND', operation, `no app named "${name}" is configured; configured apps (desktop.apps): ${this.names}`);
    }
    return apps[name]!;
  }
}
