/** Profiles: which one is active, who is bound to which, and the profiles themselves (the built-in ones and yours). */
import { allProfiles, BUILT_IN_PROFILES } from '../../../../main/config/schema';
import type { ConnectedClient } from '../../../../main/tray/bridge-api';
import type { SectionProps } from '../section-props';
import { ActiveProfileCard } from './ActiveProfileCard';
import { AddProfileCard } from './AddProfileCard';
import { ClientBindingsCard } from './ClientBindingsCard';
import { ProfileCard } from './ProfileCard';

export function ProfilesSection({ draft, edit, errors, clients }: Pick<SectionProps, 'draft' | 'edit' | 'errors'> & { clients: ConnectedClient[] }) {
  const profiles = allProfiles(draft.profiles.sets);
  const names = Object.keys(profiles);
  return (
    <>
      <ActiveProfileCard profiles={draft.profiles} names={names} errors={errors} edit={edit} />
      <ClientBindingsCard bindings={draft.profiles.clients} clients={clients} names={names} errors={errors} edit={edit} />
      {names.map((name) => (
        <ProfileCard key={name} name={name} profile={profiles[name]!} builtIn={Object.hasOwn(BUILT_IN_PROFILES, name)} edit={edit} />
      ))}
      <AddProfileCard names={names} edit={edit} />
    </>
  );
}
