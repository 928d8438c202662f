/** Which settings section shows a config key path (to open the window at a failing field). */
import type { KeyPath, SectionId } from './bridge-api.js';

const BY_CONFIG_SECTION: Record<string, SectionId> = {
  server: 'connection',
  filesystem: 'files',
  shell: 'commands',
  process: 'processes',
  desktop: 'desktop',
  services: 'services',
  chatgpt: 'chatgpt',
  tunnel: 'chatgpt',
  gateway: 'gateway',
  updates: 'connection',
  git: 'git',
  checks: 'git',
  undo: 'git',
  profiles: 'profiles',
};

export function sectionForField(field: KeyPath | null | undefined): SectionId {
  const head = field?.[0];
  return (typeof head === 'string' && BY_CONFIG_SECTION[head]) || 'connection';
}
