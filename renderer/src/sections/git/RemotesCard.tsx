/** The remotes git_push and git_pull / git_clone may reach, each its own list, by repository. */
import { remoteEntryProblem } from '../../../../main/policy/git-remotes';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import type { SectionProps } from '../section-props';

const LISTS = [
  { key: 'push', label: 'Push to (git_push: the current branch)', inputLabel: 'Repository to push to', empty: 'No pushing.' },
  { key: 'pull', label: 'Pull and clone from (git_pull fast-forward only, git_clone)', inputLabel: 'Repository to pull from', empty: 'No pulling or cloning.' },
] as const;

export function RemotesCard({ draft, edit, errors }: SectionProps) {
  return (
    <Card
      title="Remotes"
      description="Repositories the model may push to or pull from, by identity: github.com/owner/repo (https:// and git@ spellings are the same repository), owner/repo for GitHub, or a local repository’s absolute path (while commands are sandboxed, one outside the writable folders cannot take a push). Pushes are never forced."
    >
      {LISTS.map(({ key, ...words }) => (
        <ListEditor
          key={key}
          id={fieldId(`git.${key}`)}
          {...words}
          items={draft.git[key]}
          placeholder="github.com/you/project"
          addLabel="Add remote"
          errorFor={(i) => errors.get(`git.${key}.${i}`)}
          onChange={(items) => edit((d) => void (d.git[key] = items))}
          check={remoteEntryProblem}
        />
      ))}
    </Card>
  );
}
