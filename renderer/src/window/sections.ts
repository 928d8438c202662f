/** The window's pages, in sidebar order: their titles, icons and one-line descriptions. */
import type { SectionId } from '../../../main/tray/bridge-api';
import type { IconName } from '../components/Icon';

export interface SectionInfo {
  id: SectionId;
  title: string;
  icon: IconName;
  description: string;
  /** The page has nothing to save (no Save/Discard bar there). */
  readOnly?: true;
}

export const SECTIONS: SectionInfo[] = [
  { id: 'connection', title: 'Connection', icon: 'connection', description: 'How MCP clients reach this computer, and the token they need.' },
  { id: 'chatgpt', title: 'ChatGPT', icon: 'chatgpt', description: 'Connect ChatGPT through OpenAI’s Secure MCP Tunnel, step by step.' },
  { id: 'files', title: 'Files', icon: 'files', description: 'The folders the model can see, and whether it may change them.' },
  { id: 'commands', title: 'Commands', icon: 'commands', description: 'Which programs the model may run, and for how long.' },
  { id: 'git', title: 'Git', icon: 'git', description: 'Typed git tools, the remotes they may reach, project checks and undo.' },
  {
    id: 'processes',
    title: 'Processes',
    icon: 'processes',
    description: 'Seeing and ending running programs, and what ChatGPT may learn about this computer.',
  },
  { id: 'desktop', title: 'Desktop', icon: 'desktop', description: 'Screen, mouse and keyboard, web pages and apps.' },
  { id: 'services', title: 'Services', icon: 'services', description: 'System services the model may check or control.' },
  { id: 'gateway', title: 'Other MCP servers', icon: 'gateway', description: 'Your other MCP servers, reached through this one under the same rules.' },
  { id: 'profiles', title: 'Profiles', icon: 'key', description: 'Named sets of grants: which tools each client gets, of what you granted.' },
  { id: 'activity', title: 'Activity', icon: 'activity', description: 'What the model has asked this computer to do, live.', readOnly: true },
  {
    id: 'clients',
    title: 'Connected clients',
    icon: 'key',
    description: 'Apps connected with OAuth, and requests waiting for your approval.',
    readOnly: true,
  },
];
