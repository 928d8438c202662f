/** The remotes git_push and git_pull / git_clone may reach, each its own list, by repository. */
import { remoteEntryProblem } from '../../../../main/policy/git-remotes';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import type { SectionProps } from '../section-props';

export function RemotesCard({ draft, edit, errors }: SectionProps) {
  const check = (value: string) => remoteEntryProblem(value);
  return (
    <Card
      title="Remotes"
      description="Repositories the model may push to or pull from, by identity: github.com/owner/repo (https:// and git@ spellings are the same repository), owner/repo for GitHub, or a local repository’s absolute path. Pushes are never forced."
    >
      <ListEditor
        id={fieldId('git.push')}
        label="Push to (git_push: the current branch)"
        inputLabel="Repository to push to"
        items={draft.git.push}
        placeholder="github.com/you/project"
        addLabel="Add remote"
        empty="No pushing."
        errorFor={(i) => errors.get(`git.push.${i}`)}
        onChange={(items) => edit((d) => void (d.git.push = items))}
        check={check}
      />
      <ListEditor
        id={fieldId('git.pull')}
        label="Pull and clone from (git_pull fast-forward only, git_clone)"
        inputLabel="Repository to pull from"
        items={draft.git.pull}
        placeholder="github.com/you/project"
        addLabel="Add remote"
        empty="No pulling or cloning."
        errorFor={(i) => errors.get(`git.pull.${i}`)}
        onChange={(items) => edit((d) => void (d.git.pull = items))}
        check={check}
      />
    </Card>
  );
}
