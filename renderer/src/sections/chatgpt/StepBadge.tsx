/** A step's Done or To do, at the top right of its card. */
import { Icon } from '../../components/Icon';

export function StepBadge({ done }: { done: boolean }) {
  return done ? (
    <span className="pill pill-ok">
      <Icon name="check" size={12} /> Done
    </span>
  ) : (
    <span className="pill pill-running">To do</span>
  );
}
