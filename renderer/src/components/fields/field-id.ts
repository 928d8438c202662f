/**
 * The ids that tie a field to its label, error and hint. A config key ("server.port") becomes
 * the control's id, so the window can open at the field an error or a navigation request names.
 */
import type { ReactNode } from 'react';

export function fieldId(key: string): string {
  return `field-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** aria-describedby for a control with an error and a hint below it (either may be absent). */
export function describedBy(id: string, error: string | undefined, hint: ReactNode | undefined): string | undefined {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
