/** Whether the model may read repositories and change them locally, and what the git tools never run. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';

export function GitAccessCard({ draft, edit }: SectionProps) {
  const { git } = draft;
  const noFiles = draft.filesystem.roots.length === 0;
  return (
    <Card
      title="Git access"
      description="Typed git tools in the repositories inside your shared folders, without allowing the git program as a command. git runs in the command sandbox when there is one."
    >
      <Switch
        id={fieldId('git.read')}
        label="Read repositories"
        description="Status, diffs, history, commits and branches (git_status, git_diff, git_log, git_show, git_branch_list). Files the secret patterns protect never appear."
        checked={git.read}
        disabled={noFiles}
        onChange={(on) => edit((d) => void (d.git.read = on))}
      />
      <Switch
        id={fieldId('git.write')}
        label="Change repositories locally"
        description="Stage and unstage named paths, commit what is staged, create and switch branches, restore paths (git_add, git_unstage, git_commit, git_branch_create, git_switch, git_restore). Needs a writable shared folder; nothing leaves this computer."
        checked={git.write}
        disabled={noFiles}
        onChange={(on) => edit((d) => void (d.git.write = on))}
      />
      <p className="hint">
        Refused in every repository, before git runs: settings in the repository’s own config that name a program (hooks, core.fsmonitor, pagers, external diff
        and textconv, clean/smudge filters, credential helpers, core.sshCommand, aliases, signing programs, ext:: remotes). Your global git config is yours and
        is respected. Write tools also refuse a repository with active hooks.
      </p>
    </Card>
  );
}
