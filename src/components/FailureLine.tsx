/** A failed load of an island's data, in the page's language (the server's own words for a refusal). */
import { NoticeLine } from '@/components/island.tsx';
import type { Translate } from '@/i18n/strings.ts';
import { failureMessage, type FailureMessageKey } from '@/lib/api/errors.ts';

export function FailureLine({ error, t }: { error: unknown; t: Translate<FailureMessageKey> }) {
  return <NoticeLine notice={{ kind: 'error', ...failureMessage(error) }} t={t} />;
}
