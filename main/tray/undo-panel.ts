/**
 * The activity view's undo and the Git page's check detection, for the settings window: each
 * answer is a result (never a thrown error across IPC), and undo answers to the running server's
 * policies, or, while it is stopped, to those the saved config makes. Electron-free.
 */
import path from 'node:path';
import { isComputerAdapterError } from '../../adapter/contract/errors.js';
import { proposeProjects } from '../config/project-checks.js';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { Config } from '../config/schema.js';
import { silentLogger } from '../log.js';
import { createServerFactory } from '../mcp/server.js';
import type { Policies } from '../mcp/tool.js';
import { openJournal, UndoService } from '../undo/undo-service.js';
import type { DetectResult, UndoDetail, UndoList, UndoResult } from './bridge-api.js';

export class UndoPanel {
  constructor(
    /** The service for the saved config (it names the journal's bound and the policies), and whether changes are being recorded. */
    private readonly service: () => { undo: UndoService; recording: boolean },
  ) {}

  async list(): Promise<UndoList> {
    return this.answer(async () => {
      const { undo, recording } = this.service();
      return { ok: true as const, ...(await undo.list()), recording };
    });
  }

  show(id: string): Promise<UndoDetail> {
    return this.answer(async () => ({ ok: true as const, group: await this.service().undo.show(id) }));
  }

  apply(id: string): Promise<UndoResult> {
    return this.answer(async () => ({ ok: true as const, outcome: await this.service().undo.apply(id) }));
  }

  async detect(folder: string): Promise<DetectResult> {
    if (!path.isAbsolute(folder)) return { ok: false, error: 'choose a folder by its absolute path' };
    return { ok: true, projects: proposeProjects(folder) };
  }

  private async answer<T extends { ok: true }>(work: () => Promise<T>): Promise<T | { ok: false; error: string }> {
    try {
      return await work();
    } catch (error) {
      return { ok: false, error: isComputerAdapterError(error) || error instanceof Error ? error.message : String(error) };
    }
  }
}

export interface UndoPanelOptions {
  appDir: string;
  adapter: ComputerAdapter;
  /** The saved config (read again for each request). */
  config(): Readonly<Config>;
  /** The running server's policies, or null while it is not running. */
  running(): Policies | null;
  protectedFiles: string[];
}

/** The panel over the app's journal: the running server's policies, else those the saved config makes. */
export function undoPanel(options: UndoPanelOptions): UndoPanel {
  return new UndoPanel(() => {
    const config = options.config();
    const policies = async () =>
      options.running() ??
      createServerFactory({ config, adapter: options.adapter, logger: silentLogger, protectedFiles: options.protectedFiles, tools: [] }).policies;
    return { undo: new UndoService(openJournal(options.appDir, config), policies, options.adapter), recording: config.undo.enabled };
  });
}
