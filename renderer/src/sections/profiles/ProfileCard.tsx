/** One profile: a built-in one says what it allows; yours has a box per grant, its two switches, and Remove. */
import { describeProfile, PROFILE_GRANT_LABELS, PROFILE_GRANTS, type Profile, type ProfileGrant } from '../../../../main/config/schema';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import type { Draft } from '../../draft';
import type { SectionProps } from '../section-props';
import './profiles.css';

export function ProfileCard({ name, profile, builtIn, edit }: Pick<SectionProps, 'edit'> & { name: string; profile: Profile; builtIn: boolean }) {
  const allows = `Allows ${describeProfile(profile)}.`;
  if (builtIn) {
    return (
      <Card title={name} description="Built in.">
        <p className="hint">{allows}</p>
      </Card>
    );
  }
  const change = (apply: (own: Draft['profiles']['sets'][string]) => void) => edit((d) => apply(d.profiles.sets[name]!));
  const toggle = (grant: ProfileGrant, on: boolean) =>
    change((own) => void (own.grants = on ? PROFILE_GRANTS.filter((g) => g === grant || own.grants.includes(g)) : own.grants.filter((g) => g !== grant)));
  const remove = () => edit((d) => void delete d.profiles.sets[name]);
  const actions = (
    <button type="button" className="link-button danger" onClick={remove}>
      Remove
    </button>
  );
  return (
    <Card title={name} description={allows} actions={actions}>
      <fieldset className="profile-grants">
        <legend className="visually-hidden">What {name} allows</legend>
        {PROFILE_GRANTS.map((grant) => (
          <label key={grant}>
            <input type="checkbox" checked={profile.grants.includes(grant)} onChange={(event) => toggle(grant, event.target.checked)} />
            {PROFILE_GRANT_LABELS[grant]}
          </label>
        ))}
      </fieldset>
      <Switch
        id={fieldId(`profiles.sets.${name}.readOnly`)}
        label="Only tools that change nothing"
        checked={profile.readOnly}
        onChange={(on) => change((own) => void (own.readOnly = on))}
      />
      <Switch
        id={fieldId(`profiles.sets.${name}.gateway`)}
        label="The other MCP servers' tools"
        description={profile.readOnly ? 'Not with “only tools that change nothing”: their annotations are their own claim.' : undefined}
        disabled={profile.readOnly}
        checked={profile.gateway}
        onChange={(on) => change((own) => void (own.gateway = on))}
      />
    </Card>
  );
}
