/**
 * The settings window: the sidebar, the open page (its banners and cards) and, on pages with
 * settings, the Save bar. The state lives in the window's hooks; this only lays them out.
 */
import { useMemo } from 'react';
import type { SettingsBridge } from '../../main/tray/bridge-api';
import { ConsentPrompt } from './sections/clients/ConsentPrompt';
import { useConnections } from './sections/clients/use-connections';
import type { SectionProps } from './sections/section-props';
import { ActionBar } from './window/ActionBar';
import { CurrentSection } from './window/CurrentSection';
import { PageBanners } from './window/PageBanners';
import { SECTIONS } from './window/sections';
import { Sidebar } from './window/Sidebar';
import { useActivity } from './window/use-activity';
import { useNavigation } from './window/use-navigation';
import { useSaveShortcut } from './window/use-save-shortcut';
import { useSettings } from './window/use-settings';
import './window/layout.css';

export function App({ bridge }: { bridge: SettingsBridge }) {
  const { section, setSection, navigate } = useNavigation(bridge);
  const settings = useSettings(bridge, navigate);
  const activity = useActivity(bridge);
  const connections = useConnections(bridge);
  useSaveShortcut(settings.save);

  const { snapshot, draft, edit, adoptSaved, errors, status, dirty } = settings;
  const env = useMemo(() => ({ homeDir: snapshot?.homeDir ?? '', platform: snapshot?.platform ?? '' }), [snapshot]);
  const current = SECTIONS.find((s) => s.id === section) ?? SECTIONS[0]!;
  const props: SectionProps = { draft, edit, adoptSaved, errors, env, status, bridge };

  return (
    <div className="app">
      <Sidebar
        status={status}
        restartPending={settings.restartPending}
        section={section}
        onSelect={setSection}
        errors={errors}
        unsavedIn={settings.unsavedIn}
        callsRunning={activity.some((a) => a.outcome === 'running')}
        requestsWaiting={connections.snapshot.pending.length > 0}
        configPath={snapshot?.configPath}
      />

      <div className="content">
        <main className="page" aria-labelledby="page-title">
          <header className="page-header">
            <h1 id="page-title">{current.title}</h1>
            <p>{current.description}</p>
          </header>

          {section !== 'clients' ? (
            <ConsentPrompt requests={connections.snapshot.pending} now={connections.now} bridge={bridge} onDone={() => void connections.reload()} />
          ) : null}
          <PageBanners
            snapshot={snapshot}
            status={status}
            current={current}
            dirty={dirty}
            unsavedIn={settings.unsavedIn}
            saveState={settings.saveState}
            restartPending={settings.restartPending}
            restarting={settings.restarting}
            restart={settings.restart}
            onSelect={setSection}
          />

          <div className="sections">
            <CurrentSection section={section} props={props} dirty={dirty} activity={activity} connections={connections} />
          </div>
        </main>

        {current.readOnly ? null : (
          <ActionBar problems={errors.size} dirty={dirty} saveState={settings.saveState} onDiscard={settings.discard} onSave={() => void settings.save()} />
        )}
      </div>
    </div>
  );
}
