/** One project's checks: name, command (words; "quotes" keep spaces), level; add, change, remove. */
import { useState } from 'react';
import { CHECK_NAME } from '../../../../main/config/sections/checks';
import type { DraftCheck, DraftProject, FieldErrors } from '../../draft';
import { joinWords, splitWords } from './command-words';
import './checks.css';

const LEVELS: ReadonlyArray<{ value: DraftCheck['level']; label: string }> = [
  { value: 'auto', label: 'by its name' },
  { value: 'fast', label: 'fast' },
  { value: 'normal', label: 'normal' },
  { value: 'strict', label: 'strict' },
];

export function ProjectChecks({
  project,
  index,
  errors,
  onChange,
  onRemove,
}: {
  project: DraftProject;
  index: number;
  errors: FieldErrors;
  onChange(project: DraftProject): void;
  onRemove(): void;
}) {
  const [name, setName] = useState('');
  const [command, setCommand] = useState('');
  const base = `checks.projects.${index}`;
  const taken = project.checks.some((c) => c.name === name.trim());
  const problem = name && !CHECK_NAME.test(name.trim()) ? 'letters, digits, _ . : - (up to 40)' : taken ? 'already a check of this project' : null;
  const set = (i: number, change: Partial<DraftCheck>) => onChange({ ...project, checks: project.checks.map((c, j) => (j === i ? { ...c, ...change } : c)) });
  return (
    <div className="project-checks" role="group" aria-label={`Checks of ${project.path}`}>
      <div className="project-head">
        <span className="mono">{project.path}</span>
        {errors.get(`${base}.path`) ? <span className="field-error inline">{errors.get(`${base}.path`)}</span> : null}
        <button type="button" className="link-button danger" onClick={onRemove}>
          Remove project
        </button>
      </div>
      <table className="table checks">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Command</th>
            <th scope="col">Level</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {project.checks.map((check, i) => (
            <tr key={check.name}>
              <td className="mono shrink">{check.name}</td>
              <td>
                <input
                  className="input mono"
                  aria-label={`Command of ${check.name}`}
                  value={joinWords(check.command)}
                  onChange={(event) => set(i, { command: splitWords(event.target.value) })}
                />
                {errors.get(`${base}.checks.${check.name}`) ? <div className="field-error">{errors.get(`${base}.checks.${check.name}`)}</div> : null}
              </td>
              <td className="shrink">
                <select
                  className="input"
                  aria-label={`Level of ${check.name}`}
                  value={check.level}
                  onChange={(event) => set(i, { level: event.target.value as DraftCheck['level'] })}
                >
                  {LEVELS.map((l) => (
                    <option key={l.value} value={l.value}>
                      {l.label}
                    </option>
                  ))}
                </select>
              </td>
              <td className="shrink">
                <button type="button" className="link-button danger" onClick={() => onChange({ ...project, checks: project.checks.filter((_, j) => j !== i) })}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="add-row">
        <input
          className="input mono check-name"
          aria-label="New check’s name"
          placeholder="test"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <input
          className="input mono"
          aria-label="New check’s command"
          placeholder="npm test"
          value={command}
          onChange={(event) => setCommand(event.target.value)}
        />
        <button
          type="button"
          className="button"
          disabled={!name.trim() || !command.trim() || problem !== null}
          onClick={() => {
            onChange({ ...project, checks: [...project.checks, { name: name.trim(), command: splitWords(command), level: 'auto' }] });
            setName('');
            setCommand('');
          }}
        >
          Add check
        </button>
      </div>
      {problem ? <div className="field-error">{problem}</div> : null}
    </div>
  );
}
