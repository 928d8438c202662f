/** A one-line result or status (a connection test, a lookup), announced as it changes when `live`. */
import type { ReactNode } from 'react';
import './result-box.css';

export function ResultBox({ label, live, children }: { label?: string; live?: boolean; children: ReactNode }) {
  return (
    <div className="result-box" role="status" aria-live={live ? 'polite' : undefined} aria-label={label}>
      {children}
    </div>
  );
}
