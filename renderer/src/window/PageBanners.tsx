/**
 * What the page says above its cards: a file that could not be read, a server that is not
 * running, settings the file has that this version drops, environment overrides, unsaved
 * changes on other pages (on a page with nothing to save), and how the last save went.
 */
import type { SectionId, ServerStatus, SettingsSnapshot } from '../../../main/tray/bridge-api';
import { Banner } from '../components/Banner';
import { unknownKeys } from '../draft';
import { SECTIONS, type SectionInfo } from './sections';
import type { SaveState } from './use-settings';

export function PageBanners({
  snapshot,
  status,
  current,
  dirty,
  unsavedIn,
  saveState,
  restartPending,
  restarting,
  restart,
  onSelect,
}: {
  snapshot: SettingsSnapshot | null;
  status: ServerStatus;
  current: SectionInfo;
  dirty: boolean;
  unsavedIn: Set<SectionId>;
  saveState: SaveState;
  restartPending: boolean;
  restarting: boolean;
  restart(): Promise<void>;
  onSelect(section: SectionId): void;
}) {
  const unknown = unknownKeys(snapshot?.config ?? null);
  const unsavedSections = SECTIONS.filter((s) => unsavedIn.has(s.id));
  const firstUnsaved = unsavedSections[0]?.id ?? 'connection';
  return (
    <>
      {snapshot?.fileError ? <Banner kind="bad">{snapshot.fileError}. Saving replaces it with the settings shown here.</Banner> : null}
      {status.state === 'error' ? <Banner kind="bad">The server is not running: {status.message.split('\n')[0]}</Banner> : null}
      {status.state === 'running' && status.contract?.change ? <Banner kind="info">{status.contract.change}</Banner> : null}
      {unknown.length > 0 ? (
        <Banner kind="warn">The config file has settings this version does not know ({unknown.join(', ')}); saving removes them.</Banner>
      ) : null}
      {snapshot && snapshot.overrides.length > 0 ? (
        <Banner kind="info">Environment variables override some file settings in the running server: {snapshot.overrides.join(', ')}.</Banner>
      ) : null}
      {current.readOnly && dirty ? (
        <Banner
          kind="info"
          action={
            <button type="button" className="button" onClick={() => onSelect(firstUnsaved)}>
              Review
            </button>
          }
        >
          Unsaved changes in {listInWords(unsavedSections.map((s) => s.title))}. This page has nothing to save; save or discard them there.
        </Banner>
      ) : null}
      {saveState.kind === 'saved' ? (
        <Banner
          kind="ok"
          action={
            restartPending ? (
              <button type="button" className="button primary" onClick={restart} disabled={restarting}>
                {restarting ? 'Restarting…' : 'Restart server now'}
              </button>
            ) : undefined
          }
        >
          {restartPending ? 'Saved. The running server keeps its current settings until it restarts.' : 'Saved. The server uses these settings when it starts.'}
        </Banner>
      ) : null}
      {saveState.kind === 'failed' ? <Banner kind="bad">{saveState.error}</Banner> : null}
    </>
  );
}

function listInWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
