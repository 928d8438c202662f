/** A new profile of your own, by name; it starts allowing nothing but system info. */
import { useState } from 'react';
import { Card } from '../../components/Card';
import { FieldError } from '../../components/fields/FieldError';
import type { SectionProps } from '../section-props';

export function AddProfileCard({ names, edit }: Pick<SectionProps, 'edit'> & { names: string[] }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const entry = name.trim();
    if (!entry) return;
    if (names.includes(entry)) return setProblem('a profile has that name');
    if (entry.length > 40) return setProblem('at most 40 characters');
    edit((d) => void (d.profiles.sets[entry] = { grants: [], readOnly: false, gateway: false }));
    setName('');
    setProblem(null);
  };
  return (
    <Card title="New profile">
      <div className="add-row">
        <input
          id="new-profile"
          className="input"
          aria-label="Name of the new profile"
          placeholder="Phone"
          value={name}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => void (event.key === 'Enter' && add())}
        />
        <button type="button" className="button" onClick={add}>
          Add profile
        </button>
      </div>
      {problem ? <FieldError id="new-profile" message={problem} /> : null}
    </Card>
  );
}
