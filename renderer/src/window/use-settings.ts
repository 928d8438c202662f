/**
 * The settings being edited: the file as loaded (the baseline), the draft, their errors (the
 * schema's, and the main process's from the last save), saving, and the server's state, which
 * decides whether saved settings still wait for a restart.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { NavigateRequest, SectionId, ServerStatus, SettingsBridge, SettingsSnapshot } from '../../../main/tray/bridge-api';
import { sectionForField } from '../../../main/tray/sections';
import { changedSections, defaultDraft, issuesToErrors, sameSettings, toConfig, toDraft, validateDraft, type Draft, type FieldErrors } from '../draft';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; path: string } | { kind: 'failed'; error: string };

export function useSettings(bridge: SettingsBridge, navigate: (request: NavigateRequest) => void) {
  const [snapshot, setSnapshot] = useState<SettingsSnapshot | null>(null);
  const [baseline, setBaseline] = useState<Draft>(defaultDraft);
  const [draft, setDraft] = useState<Draft>(defaultDraft);
  const [status, setStatus] = useState<ServerStatus>({ state: 'starting' });
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const [mainErrors, setMainErrors] = useState<FieldErrors>(new Map());
  const [restarting, setRestarting] = useState(false);
  /** Saved settings the running server does not have yet (it keeps its own until it restarts). */
  const [restartPending, setRestartPending] = useState(false);

  const errors = useMemo(() => {
    const merged = new Map(mainErrors);
    for (const [key, message] of validateDraft(draft)) merged.set(key, message);
    return merged;
  }, [draft, mainErrors]);
  const dirty = useMemo(() => !sameSettings(draft, baseline), [draft, baseline]);
  const unsavedIn = useMemo(() => new Set<SectionId>(changedSections(draft, baseline).map((name) => sectionForField([name]))), [draft, baseline]);

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
    const offStatus = bridge.onStatus((next) => {
      setStatus(next);
      // A (re)start from anywhere (the tray, this window) reads the saved file again.
      if (next.state === 'starting' || next.state === 'stopped' || next.state === 'error') setRestartPending(false);
    });
    return () => {
      alive = false;
      offStatus();
    };
  }, [bridge, navigate]);

  useEffect(() => bridge.setDirty(dirty), [bridge, dirty]);

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

  const adoptSaved = useCallback((change: (draft: Draft) => void) => {
    const apply = (previous: Draft) => {
      const next = structuredClone(previous);
      change(next);
      return next;
    };
    setBaseline(apply);
    setDraft(apply);
  }, []);

  const discard = () => {
    setDraft(baseline);
    setMainErrors(new Map());
  };

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

  return { snapshot, draft, status, errors, dirty, unsavedIn, saveState, restartPending, restarting, edit, adoptSaved, save, discard, restart };
}
