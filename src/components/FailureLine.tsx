/** A failed load of an island's data, in the page's language (the server's own words for a refusal). */
import { NoticeLine, type FailureKey } from '@/components/island.tsx';
import type { Translate } from '@/i18n/strings.ts';
import { failureMessage } from '@/lib/api/errors.ts';

export function FailureLine({ error, t }: { error: unknown; t: Translate<FailureKey> }) {
  return <NoticeLine notice={{ kind: 'error', ...failureMessage(error) }} t={t} />;
}
