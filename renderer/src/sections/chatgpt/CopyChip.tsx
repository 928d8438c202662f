/** A value to paste into ChatGPT (a name, the tunnel id, a prompt), with its own Copy button. */
import { Icon } from '../../components/Icon';
import type { Copier } from '../../use-copy';
import './copy-chip.css';

export function CopyChip({ text, what, copier }: { text: string; what: string; copier: Copier }) {
  const { copied, copy } = copier;
  return (
    <span className="copy-chip">
      <code>{text}</code>
      <button type="button" className="button small" aria-label={`Copy ${what}`} onClick={() => void copy(what, text)}>
        <Icon name={copied === what ? 'check' : 'copy'} size={13} />
        {copied === what ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
