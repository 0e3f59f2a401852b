/**
 * The invoice store's world in the browser: calls as the logged-in user, the
 * issued file fetched with the same login (a link cannot carry the token), and
 * handing a file to the browser to save.
 */
import type { ReadableAtom } from 'nanostores';
import type { ApiRoute } from '#contract/api.ts';
import type { UserInfo } from '#contract/identity.ts';
import { download, type Call, type CallOptions } from '@/lib/api/client.ts';
import { $authToken, $user, authCall } from '@/stores/session.ts';

export interface InvoiceEnvironment {
  call: Call;
  /** A file a call answers, fetched as the logged-in user. */
  download<R extends ApiRoute>(route: R, options: Omit<CallOptions<R>, 'token'>): Promise<Blob>;
  /** Hands the file to the browser as a download named `name`. */
  save(file: Blob, name: string): void;
  $user: ReadableAtom<UserInfo | null>;
}

export const invoiceEnvironment: InvoiceEnvironment = {
  call: authCall,
  download: (route, options) => download(route, { ...options, token: $authToken.get()?.AccessToken }),
  save(file, name) {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(file);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked after the browser has started the download.
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  },
  $user,
};
