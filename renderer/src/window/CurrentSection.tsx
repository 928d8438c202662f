/** The open page's cards. */
import type { ActivityEntry, SectionId } from '../../../main/tray/bridge-api';
import { ActivitySection } from '../sections/activity/ActivitySection';
import { ChatGptSection } from '../sections/chatgpt/ChatGptSection';
import { ClientsSection } from '../sections/clients/ClientsSection';
import type { Connections } from '../sections/clients/use-connections';
import { CommandsSection } from '../sections/commands/CommandsSection';
import { ConnectionSection } from '../sections/connection/ConnectionSection';
import { DesktopSection } from '../sections/desktop/DesktopSection';
import { FilesSection } from '../sections/files/FilesSection';
import { GatewaySection } from '../sections/gateway/GatewaySection';
import { GitSection } from '../sections/git/GitSection';
import { ProcessesSection } from '../sections/processes/ProcessesSection';
import { ProfilesSection } from '../sections/profiles/ProfilesSection';
import type { SectionProps } from '../sections/section-props';
import { ServicesSection } from '../sections/services/ServicesSection';

export function CurrentSection({
  section,
  props,
  dirty,
  activity,
  connections,
}: {
  section: SectionId;
  props: SectionProps;
  dirty: boolean;
  activity: ActivityEntry[];
  connections: Connections;
}) {
  switch (section) {
    case 'connection':
      return <ConnectionSection {...props} />;
    case 'chatgpt':
      return <ChatGptSection {...props} dirty={dirty} />;
    case 'files':
      return <FilesSection {...props} />;
    case 'commands':
      return <CommandsSection {...props} />;
    case 'git':
      return <GitSection {...props} />;
    case 'processes':
      return <ProcessesSection {...props} />;
    case 'desktop':
      return <DesktopSection {...props} />;
    case 'services':
      return <ServicesSection {...props} />;
    case 'gateway':
      return <GatewaySection {...props} />;
    case 'profiles':
      return <ProfilesSection {...props} clients={connections.snapshot.clients} />;
    case 'activity':
      return <ActivitySection entries={activity} bridge={props.bridge} />;
    case 'clients':
      return (
        <ClientsSection
          auth={props.draft.server.auth}
          connections={connections.snapshot}
          now={connections.now}
          bridge={props.bridge}
          reload={connections.reload}
        />
      );
  }
}
