/** Git: the typed git tools' grants, the remotes they may reach, the project checks, the undo journal. */
import type { SectionProps } from '../section-props';
import { ChecksCard } from './ChecksCard';
import { GitAccessCard } from './GitAccessCard';
import { RemotesCard } from './RemotesCard';
import { UndoJournalCard } from './UndoJournalCard';

export function GitSection(props: SectionProps) {
  return (
    <>
      <GitAccessCard {...props} />
      <RemotesCard {...props} />
      <ChecksCard {...props} />
      <UndoJournalCard {...props} />
    </>
  );
}
