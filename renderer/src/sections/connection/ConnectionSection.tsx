/** Connection: how MCP clients reach this computer (address, sign-in, a test, and the advanced rest). */
import { useCopy } from '../../use-copy';
import type { SectionProps } from '../section-props';
import { AdvancedCard } from './AdvancedCard';
import { AuthenticationCard } from './AuthenticationCard';
import { ServerAddressCard } from './ServerAddressCard';
import { TestConnectionCard } from './TestConnectionCard';

export function ConnectionSection({ draft, edit, errors, status, bridge, adoptSaved }: SectionProps) {
  // One "Copied" for the page: copying the token after the URL moves it there.
  const copier = useCopy(bridge);
  return (
    <>
      <ServerAddressCard draft={draft} edit={edit} errors={errors} status={status} copier={copier} />
      <AuthenticationCard draft={draft} edit={edit} errors={errors} bridge={bridge} status={status} copier={copier} adoptSaved={adoptSaved} />
      <TestConnectionCard status={status} bridge={bridge} />
      <AdvancedCard draft={draft} edit={edit} errors={errors} />
    </>
  );
}
