/** "Find checks": what a folder's project files (and its subfolders') suggest, shown before any is used; "Use these checks" adds a project. */
import { useState } from 'react';
import type { DetectedProject } from '../../../../main/tray/bridge-api';
import { ResultBox } from '../../components/ResultBox';
import type { SectionProps } from '../section-props';
import { joinWords } from './command-words';

export function FindChecks({ draft, edit, bridge }: SectionProps) {
  const [folder, setFolder] = useState(draft.filesystem.roots[0]?.path ?? '');
  const [found, setFound] = useState<DetectedProject[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const configured = new Set(draft.checks.projects.map((p) => p.path));
  const find = async () => {
    const result = await bridge.detectChecks(folder.trim());
    setError(result.ok ? null : result.error);
    setFound(result.ok ? result.projects : null);
  };
  return (
    <div className="find-checks">
      <div className="add-row">
        <input
          className="input mono"
          aria-label="Folder to look for projects in"
          placeholder="/home/you/projects"
          value={folder}
          onChange={(event) => setFolder(event.target.value)}
        />
        <button type="button" className="button" disabled={!folder.trim()} onClick={() => void find()}>
          Find checks
        </button>
      </div>
      {error ? <ResultBox live>{error}</ResultBox> : null}
      {found && found.length === 0 ? (
        <ResultBox live>No package.json, Cargo.toml, pyproject.toml or go.mod there or in the folders just below it.</ResultBox>
      ) : null}
      {found?.map((project) => (
        <div key={project.path} className="proposal" role="group" aria-label={`Suggested for ${project.path}`}>
          <div className="project-head">
            <span className="mono">{project.path}</span>
            {configured.has(project.path) ? (
              <span className="muted small">already has checks</span>
            ) : (
              <button
                type="button"
                className="button small"
                onClick={() =>
                  edit(
                    (d) =>
                      void d.checks.projects.push({
                        path: project.path,
                        checks: Object.entries(project.checks).map(([name, c]) => ({ name, command: c.command, level: 'auto' })),
                      }),
                  )
                }
              >
                Use these checks
              </button>
            )}
          </div>
          <ul className="proposal-list">
            {Object.entries(project.checks).map(([name, c]) => (
              <li key={name}>
                <span className="mono">{name}</span>: <span className="mono">{joinWords(c.command)}</span> <span className="muted small">({c.level})</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
