/** A message above a page, with an optional button; a failure is an alert, anything else a status. */
import type { ReactNode } from 'react';
import { Icon } from './Icon';
import './banner.css';

export function Banner({ kind, children, action }: { kind: 'ok' | 'bad' | 'warn' | 'info'; children: ReactNode; action?: ReactNode }) {
  return (
    <div className={`banner banner-${kind}`} role={kind === 'bad' ? 'alert' : 'status'}>
      <Icon name={kind === 'ok' ? 'check' : kind === 'info' ? 'info' : 'warning'} size={17} />
      <div className="banner-text">{children}</div>
      {action}
    </div>
  );
}
