/** A titled part of a page (a section's `<section>`, labelled by its heading), with optional actions at its top right. */
import { useId, type ReactNode } from 'react';
import './card.css';

export function Card({
  title,
  description,
  children,
  actions,
  muted,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  /** Faded: what it holds does not count while a switch elsewhere is off. */
  muted?: boolean;
}) {
  const id = useId();
  return (
    <section className={`card${muted ? ' card-muted' : ''}`} aria-labelledby={id}>
      <header className="card-header">
        <div>
          <h2 id={id}>{title}</h2>
          {description ? <p className="card-description">{description}</p> : null}
        </div>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}
