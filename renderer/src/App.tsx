import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ActivityEntry, NavigateRequest, SectionId, ServerStatus, SettingsBridge, SettingsSnapshot } from '../../main/tray/bridge-api';
import { sectionForField } from '../../main/tray/sections';
import { Icon, type IconName } from './components/Icon';
import { fieldId } from './components/fields';
import {
  changedSections,
  defaultDraft,
  issuesToErrors,
  sameSettings,
  toConfig,
  toDraft,
  unknownKeys,
  validateDraft,
  type Draft,
  type FieldErrors,
} from './draft';
import { ActivitySection } from './sections/ActivitySection';
import { ChatGptSection } from './sections/ChatGptSection';
import { CommandsSection } from './sections/CommandsSection';
import { ConnectionSection } from './sections/ConnectionSection';
import { DesktopSection } from './sections/DesktopSection';
import { FilesSection } from './sections/FilesSection';
import { ProcessesSection } from './sections/ProcessesSection';
import { ServicesSection } from './sections/ServicesSection';
import { ClientsSection } from './sections/ClientsSection';
import { ConsentPrompt } from './components/ConsentPrompt';
import { useConnections } from './connections';
import type { SectionProps } from './sections/types';

/** readOnly: the page has nothing to save (no Save/Discard bar there). */
const SECTIONS: { id: SectionId; title: string; icon: IconName; description: string; readOnly?: true }[] = [
  { id: 'connection', title: 'Connection', icon: 'connection', description: 'How MCP clients reach this computer, and the token they need.' },
  { id: 'chatgpt', title: 'ChatGPT', icon: 'chatgpt', description: 'Connect ChatGPT through OpenAI’s Secure MCP Tunnel, step by step.' },
  { id: 'files', title: 'Files', icon: 'files', description: 'The folders the model can see, and whether it may change them.' },
  { id: 'commands', title: 'Commands', icon: 'commands', description: 'Which programs the model may run, and for how long.' },
  { id: 'processes', title: 'Processes', icon: 'processes', description: 'Seeing and ending running programs.' },
  { id: 'desktop', title: 'Desktop', icon: 'desktop', description: 'Screen, mouse and keyboard, web pages and apps.' },
  { id: 'services', title: 'Services', icon: 'services', description: 'System services the model may check or control.' },
  { id: 'activity', title: 'Activity', icon: 'activity', description: 'What the model has asked this computer to do, live.', readOnly: true },
  {
    id: 'clients',
    title: 'Connected clients',
    icon: 'key',
    description: 'Apps connected with OAuth, and requests waiting for your approval.',
    readOnly: true,
  },
];

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; path: string } | { kind: 'failed'; error: string };

const ACTIVITY_LIMIT = 200;

export function App({ bridge }: { bridge: SettingsBridge }) {
  const [snapshot, setSnapshot] = useState<SettingsSnapshot | null>(null);
  const [baseline, setBaseline] = useState<Draft>(defaultDraft);
  const [draft, setDraft] = useState<Draft>(defaultDraft);
  const [section, setSection] = useState<SectionId>('connection');
  const [status, setStatus] = useState<ServerStatus>({ state: 'starting' });
  const [activity, setActivity] = useState<ActivityEntry[]>([]);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const [mainErrors, setMainErrors] = useState<FieldErrors>(new Map());
  const [restarting, setRestarting] = useState(false);
  /** Saved settings the running server does not have yet (it keeps its own until it restarts). */
  const [restartPending, setRestartPending] = useState(false);
  /**
   * The field to focus once its section has rendered. State, not a ref: a ref set between a commit and its
   * still-pending effects was taken by that earlier commit's effect, which looked in the old section's DOM.
   */
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);
  const connections = useConnections(bridge);

  const errors = useMemo(() => {
    const merged = new Map(mainErrors);
    for (const [key, message] of validateDraft(draft)) merged.set(key, message);
    return merged;
  }, [draft, mainErrors]);
  const dirty = useMemo(() => !sameSettings(draft, baseline), [draft, baseline]);
  const unsavedIn = useMemo(() => new Set(changedSections(draft, baseline).map((name) => sectionForField([name]))), [draft, baseline]);
  const env = useMemo(() => ({ homeDir: snapshot?.homeDir ?? '', platform: snapshot?.platform ?? '' }), [snapshot]);

  const navigate = useCallback((request: NavigateRequest) => {
    setSection(request.section);
    setFocusRequest(request.field ? { key: request.field.map(String).join('.') } : null);
  }, []);

  useEffect(() => {
    let alive = true;
    void bridge.load().then((loaded) => {
      if (!alive) return;
      const loadedDraft = toDraft(loaded.config);
      setSnapshot(loaded);
      setDraft(loadedDraft);
      setBaseline(loadedDraft);
      setStatus(loaded.status);
      setRestartPending(loaded.restartPending === true);
      // The file's issues are found again by validating the draft (same schema); they only pick where to open.
      const first = loaded.issues[0];
      if (loaded.navigate) navigate(loaded.navigate);
      else if (first) navigate({ section: sectionForField(first.path), field: first.path });
    });
    void bridge.listActivity().then((entries) => alive && setActivity(entries));
    const offStatus = bridge.onStatus((next) => {
      setStatus(next);
      // A (re)start from anywhere (the tray, this window) reads the saved file again.
      if (next.state === 'starting' || next.state === 'stopped' || next.state === 'error') setRestartPending(false);
    });
    const offActivity = bridge.onActivity((entry) =>
      setActivity((list) => {
        const index = list.findIndex((e) => e.seq === entry.seq);
        if (index >= 0) return list.map((e, i) => (i === index ? entry : e));
        return [...list, entry].slice(-ACTIVITY_LIMIT);
      }),
    );
    const offNavigate = bridge.onNavigate(navigate);
    return () => {
      alive = false;
      offStatus();
      offActivity();
      offNavigate();
    };
  }, [bridge, navigate]);

  useEffect(() => bridge.setDirty(dirty), [bridge, dirty]);

  // After switching sections, move focus to the requested field (or the closest container).
  useEffect(() => {
    if (!focusRequest) return;
    const parts = focusRequest.key.split('.');
    for (let n = parts.length; n > 0; n--) {
      const id = fieldId(parts.slice(0, n).join('.'));
      // The field itself, or the first control inside it (a root's path, an app's name).
      const element = document.getElementById(id) ?? document.querySelector<HTMLElement>(`[id^="${id}-"]:not([id$="-error"]):not([id$="-hint"])`);
      if (element) {
        element.focus({ preventScroll: true });
        reveal(element);
        return;
      }
    }
  }, [focusRequest]);

  const edit = useCallback((change: (draft: Draft) => void) => {
    setDraft((previous) => {
      const next = structuredClone(previous);
      change(next);
      return next;
    });
    setSaveState((s) => (s.kind === 'failed' ? { kind: 'idle' } : s));
    setMainErrors(new Map());
  }, []);

  const save = useCallback(async () => {
    if (errors.size > 0) {
      const [firstKey] = errors.keys();
      if (firstKey) navigate({ section: sectionForField(firstKey.split('.')), field: firstKey.split('.') });
      return;
    }
    if (!dirty) return;
    setSaveState({ kind: 'saving' });
    const result = await bridge.save(toConfig(draft));
    if (result.ok) {
      setBaseline(draft);
      setSaveState({ kind: 'saved', path: result.configPath });
      setRestartPending(status.state === 'running' || status.state === 'paused');
    } else {
      setMainErrors(issuesToErrors(result.issues, draft));
      setSaveState({ kind: 'failed', error: result.error });
    }
  }, [bridge, dirty, draft, errors, navigate, status.state]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);

  const restart = async () => {
    setRestarting(true);
    try {
      setStatus(await bridge.restartServer());
      setSaveState({ kind: 'idle' });
      setRestartPending(false);
    } finally {
      setRestarting(false);
    }
  };

  const errorCount = (id: SectionId) => [...errors.keys()].filter((key) => sectionForField(key.split('.')) === id).length;
  const current = SECTIONS.find((s) => s.id === section) ?? SECTIONS[0]!;
  const props: SectionProps = { draft, edit, errors, env, status, bridge };
  const unknown = unknownKeys(snapshot?.config ?? null);
  const unsavedSections = SECTIONS.filter((s) => unsavedIn.has(s.id));
  const firstUnsaved = unsavedSections[0]?.id ?? 'connection';
  const unsavedTitles = listInWords(unsavedSections.map((s) => s.title));

  return (
    <div className="app">
      <nav className="sidebar" aria-label="Settings sections">
        <div className="brand">
          <div className="brand-mark" aria-hidden="true">
            <Icon name="connection" size={18} />
          </div>
          <div>
            <div className="brand-name">ChatGPT Computer MCP</div>
            <StatusBadge status={status} />
            {restartPending ? (
              <div className="status status-warn restart-pending" title="Saved settings take effect when the server restarts.">
                <span className="status-dot" aria-hidden="true" />
                Restart pending
              </div>
            ) : null}
          </div>
        </div>
        <ul className="nav">
          {SECTIONS.map((s) => {
            const count = s.id === 'activity' || s.id === 'clients' ? 0 : errorCount(s.id);
            return (
              <li key={s.id}>
                <button
                  type="button"
                  className={`nav-item${s.id === section ? ' active' : ''}`}
                  aria-current={s.id === section ? 'page' : undefined}
                  onClick={() => setSection(s.id)}
                >
                  <Icon name={s.icon} />
                  <span>{s.title}</span>
                  {count > 0 ? (
                    <span className="nav-badge" aria-label={`${count} ${count === 1 ? 'problem' : 'problems'}`}>
                      {count}
                    </span>
                  ) : unsavedIn.has(s.id) ? (
                    <span className="nav-unsaved" aria-label="unsaved changes" title="Unsaved changes" />
                  ) : null}
                  {s.id === 'activity' && activity.some((a) => a.outcome === 'running') ? <span className="nav-live" aria-label="calls running" /> : null}
                  {s.id === 'clients' && connections.snapshot.pending.length > 0 ? (
                    <span className="nav-live" aria-label="requests waiting for approval" />
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
        <div className="sidebar-footer">
          <div className="muted small">Config file</div>
          <div className="mono small path" title={snapshot?.configPath}>
            {snapshot?.configPath ?? '…'}
          </div>
        </div>
      </nav>

      <div className="content">
        <main className="page" aria-labelledby="page-title">
          <header className="page-header">
            <h1 id="page-title">{current.title}</h1>
            <p>{current.description}</p>
          </header>

          {section !== 'clients' ? (
            <ConsentPrompt requests={connections.snapshot.pending} now={connections.now} bridge={bridge} onDone={() => void connections.reload()} />
          ) : null}
          {snapshot?.fileError ? <Banner kind="bad">{snapshot.fileError}. Saving replaces it with the settings shown here.</Banner> : null}
          {status.state === 'error' ? <Banner kind="bad">The server is not running: {status.message.split('\n')[0]}</Banner> : null}
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
                <button type="button" className="button" onClick={() => setSection(firstUnsaved)}>
                  Review
                </button>
              }
            >
              Unsaved changes in {unsavedTitles}. This page has nothing to save; save or discard them there.
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
              {restartPending
                ? 'Saved. The running server keeps its current settings until it restarts.'
                : 'Saved. The server uses these settings when it starts.'}
            </Banner>
          ) : null}
          {saveState.kind === 'failed' ? <Banner kind="bad">{saveState.error}</Banner> : null}

          <div className="sections">
            {section === 'connection' ? <ConnectionSection {...props} /> : null}
            {section === 'chatgpt' ? <ChatGptSection {...props} dirty={dirty} /> : null}
            {section === 'files' ? <FilesSection {...props} /> : null}
            {section === 'commands' ? <CommandsSection {...props} /> : null}
            {section === 'processes' ? <ProcessesSection {...props} /> : null}
            {section === 'desktop' ? <DesktopSection {...props} /> : null}
            {section === 'services' ? <ServicesSection {...props} /> : null}
            {section === 'activity' ? <ActivitySection entries={activity} /> : null}
            {section === 'clients' ? (
              <ClientsSection connections={connections.snapshot} now={connections.now} bridge={bridge} reload={connections.reload} />
            ) : null}
          </div>
        </main>

        {current.readOnly ? null : (
          <footer className="action-bar">
            <div className="action-state" role="status" aria-live="polite">
              {errors.size > 0 ? (
                <span className="bad">
                  <Icon name="warning" size={15} /> Fix {errors.size} {errors.size === 1 ? 'problem' : 'problems'} to save
                </span>
              ) : dirty ? (
                <span className="dirty">
                  <span className="dot" aria-hidden="true" /> Unsaved changes
                </span>
              ) : (
                <span className="muted">{saveState.kind === 'saving' ? 'Saving…' : 'All changes saved'}</span>
              )}
            </div>
            <div className="action-buttons">
              <button type="button" className="button" disabled={!dirty} onClick={() => (setDraft(baseline), setMainErrors(new Map()))}>
                Discard changes
              </button>
              <button type="button" className="button primary" disabled={!dirty || errors.size > 0 || saveState.kind === 'saving'} onClick={() => void save()}>
                Save
              </button>
            </div>
          </footer>
        )}
      </div>
    </div>
  );
}

/** Shows a focused field without hiding the page title when both fit (focus alone would scroll). */
function reveal(element: HTMLElement): void {
  const page = element.closest<HTMLElement>('.page');
  if (!page) return element.scrollIntoView({ block: 'nearest' });
  const top = element.getBoundingClientRect().top - page.getBoundingClientRect().top + page.scrollTop;
  const bottom = top + element.getBoundingClientRect().height;
  page.scrollTo({ top: bottom + 24 <= page.clientHeight ? 0 : Math.max(0, top - page.clientHeight / 3) });
}

function listInWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function StatusBadge({ status }: { status: ServerStatus }) {
  const [label, tone] =
    status.state === 'running'
      ? [`Running · ${status.toolCount} ${status.toolCount === 1 ? 'tool' : 'tools'}`, 'ok']
      : status.state === 'paused'
        ? ['Paused', 'warn']
        : status.state === 'error'
          ? ['Not running', 'bad']
          : status.state === 'starting'
            ? ['Starting…', 'muted']
            : ['Stopped', 'muted'];
  return (
    <div className={`status status-${tone}`} role="status">
      <span className="status-dot" aria-hidden="true" />
      {label}
    </div>
  );
}

function Banner({ kind, children, action }: { kind: 'ok' | 'bad' | 'warn' | 'info'; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className={`banner banner-${kind}`} role={kind === 'bad' ? 'alert' : 'status'}>
      <Icon name={kind === 'ok' ? 'check' : kind === 'info' ? 'info' : 'warning'} size={17} />
      <div className="banner-text">{children}</div>
      {action}
    </div>
  );
}
