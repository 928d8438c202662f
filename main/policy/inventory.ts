/**
 * What system.environment may show of the server's environment: every name, and the values of a
 * short list of harmless ones only (where things are, which language and terminal, which user and
 * desktop session). A name on the list that still looks secret (isSecretName) is never shown: the
 * guard holds if the list is ever widened carelessly.
 */
import { isSecretName } from './argv-redaction.js';

export const ENVIRONMENT_VALUES: readonly string[] = Object.freeze(
  [
    'PATH',
    'HOME',
    'SHELL',
    'USER',
    'LOGNAME',
    'USERNAME',
    'LANG',
    'LANGUAGE',
    'LC_ALL',
    'LC_CTYPE',
    'TERM',
    'TERM_PROGRAM',
    'COLORTERM',
    'TZ',
    'TMPDIR',
    'TEMP',
    'TMP',
    'PWD',
    'EDITOR',
    'VISUAL',
    'PAGER',
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XDG_SESSION_TYPE',
    'XDG_CURRENT_DESKTOP',
    'XDG_RUNTIME_DIR',
    'XDG_CONFIG_HOME',
    'XDG_DATA_HOME',
    'XDG_CACHE_HOME',
    'USERPROFILE',
    'APPDATA',
    'LOCALAPPDATA',
    'ProgramFiles',
    'SystemRoot',
    'COMPUTERNAME',
    'OS',
    'PROCESSOR_ARCHITECTURE',
    'NUMBER_OF_PROCESSORS',
    'PATHEXT',
    'ComSpec',
    'NODE_ENV',
  ].filter((name) => !isSecretName(name)),
);

/** The names whose values may be shown (case as given: Windows names are matched as the OS spells them). */
export function shownValueNames(): readonly string[] {
  return ENVIRONMENT_VALUES;
}

/** The last guard, on the way out: a value is shown only for a listed, non-secret name. */
export function mayShowValue(name: string): boolean {
  return ENVIRONMENT_VALUES.includes(name) && !isSecretName(name);
}
