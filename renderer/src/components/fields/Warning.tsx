/** A one-line warning next to a dangerous grant, with its icon. */
import type { ReactNode } from 'react';
import { Icon } from '../Icon';
import './warning.css';

export function Warning({ children }: { children: ReactNode }) {
  return (
    <p className="warning" role="note">
      <Icon name="warning" size={15} />
      <span>{children}</span>
    </p>
  );
}
