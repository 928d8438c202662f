/**
 * The checks verify_changes runs, per project. A check is allowed because it is listed here (not
 * by the Commands allow-list); what it runs is whatever the project says (an npm script), so the
 * page says so. Checks a project's files suggest are shown first and used only once added.
 */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { DurationField } from '../../components/fields/DurationField';
import type { SectionProps } from '../section-props';
import { FindChecks } from './FindChecks';
import { ProjectChecks } from './ProjectChecks';

export function ChecksCard(props: SectionProps) {
  const { draft, edit, errors } = props;
  const projects = draft.checks.projects;
  return (
    <Card
      title="Project checks"
      description="verify_changes and git_commit_verified run these in the project’s folder, one after another, like commands (in the command sandbox when there is one). A check runs what the project says (an npm script the model may edit), so listing one lets the model run code it can write there: keep the sandbox on."
    >
      {projects.length === 0 ? <p className="empty">No project has checks: verify_changes is not offered.</p> : null}
      {projects.map((project, index) => (
        <ProjectChecks
          key={`${project.path}-${index}`}
          project={project}
          index={index}
          errors={errors}
          onChange={(next) => edit((d) => void (d.checks.projects[index] = next))}
          onRemove={() => edit((d) => void d.checks.projects.splice(index, 1))}
        />
      ))}
      <FindChecks {...props} />
      <DurationField
        id={fieldId('checks.maxRuntimeMs')}
        label="Longest one check may run"
        value={draft.checks.maxRuntimeMs}
        error={errors.get('checks.maxRuntimeMs')}
        onChange={(n) => edit((d) => void (d.checks.maxRuntimeMs = n))}
        hint="Then it is stopped (with everything it started) and reported as failed."
      />
    </Card>
  );
}
