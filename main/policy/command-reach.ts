/**
 * What an allowed program can reach once it runs, in the words both `config check` (warnings.ts)
 * and the settings window use, so neither claims more or less than the sandbox in effect
 * (sandbox-mode.ts decides it). No Node imports: the renderer bundles this module.
 */
import { writesRoots, type SandboxChoice } from './sandbox-mode.js';

type Choice = Pick<SandboxChoice, 'mode' | 'mechanism'>;

/** Whether commands really run sandboxed (a mode the OS cannot enforce is refused at start, never pretended). */
function sandboxedMode(choice: Choice): Exclude<Choice['mode'], 'off'> | null {
  return choice.mode === 'off' || choice.mechanism === null ? null : choice.mode;
}

/** Where a running program may write, for the sandboxed modes. */
function writes(mode: Exclude<Choice['mode'], 'off'>): string {
  return writesRoots(mode) ? 'write only in writable shared folders and a private temp folder' : 'write only in a private temp folder';
}

/** What it cannot read. */
function hides(mode: Exclude<Choice['mode'], 'off'>): string {
  return mode === 'private-home' ? 'your home folder outside the shared and toolchain folders' : 'secret folders in your home';
}

/** One sentence: what a started program can reach. */
export function commandReach(choice: Choice): string {
  const mode = sandboxedMode(choice);
  if (!mode) return "Once running, a program has your account's rights: it can reach anything your account can, not just the shared folders.";
  return `Once running, a program stays in the sandbox: it can ${writes(mode)}, and read the rest of the system except hidden places (${hides(mode)}, this app's folders); a program that runs code (a shell, an interpreter) runs any code within those limits.`;
}

/** The warning shown while shell.allowedCommands is ["*"]. */
export function anyCommandWarning(choice: Choice): string {
  const mode = sandboxedMode(choice);
  if (!mode) return "Any program on this computer can be run, with your account's rights: anything your account can reach.";
  return `Any program on this computer can be run, and run any code, within the sandbox: it can ${writes(mode)}, and read the rest of the system except ${hides(mode)} and this app's folders.`;
}
