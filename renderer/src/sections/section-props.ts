import type { SettingsBridge, ServerStatus } from '../../../main/tray/bridge-api';
import type { Environment } from '../dangers';
import type { Draft, FieldErrors } from '../draft';

export interface SectionProps {
  draft: Draft;
  edit(change: (draft: Draft) => void): void;
  errors: FieldErrors;
  env: Environment;
  status: ServerStatus;
  bridge: SettingsBridge;
  /** Applies a change the main process already wrote to the file (a replaced token) to the draft and the saved baseline alike. */
  adoptSaved?(change: (draft: Draft) => void): void;
}
