/**
 * The store link: the external store opens in a new window.
 * Logged in, the window opens at once (so no popup blocker stops it) and says
 * 登录商城中... while a store token is fetched; the window then goes to the
 * store's verifier with the token. Logged out, the link opens the store
 * plainly; if the token call fails, the store opens plainly too and the
 * server's message shows beside the link.
 */
import { isTokenValid, type AuthToken } from '@/lib/auth-token.ts';
import { readJson, storageKeys } from '@/lib/storage.ts';

export function wireStoreLink(link: HTMLAnchorElement, status: HTMLElement): void {
  link.addEventListener('click', (event) => {
    if (!isTokenValid(readJson<AuthToken>(storageKeys.auth))) return;
    event.preventDefault();
    const opened = window.open('', '_blank');
    const loggingIn = link.dataset.loggingIn!;
    status.textContent = loggingIn;
    status.classList.remove('notice', 'notice-error');
    if (opened) {
      opened.document.title = loggingIn;
      opened.document.body.textContent = loggingIn;
    }
    void (async () => {
      const { storeAddress } = await import('@/stores/signed-links.ts');
      const { url, failure } = await storeAddress(link.dataset.failed!);
      status.textContent = failure ?? '';
      for (const name of ['notice', 'notice-error']) status.classList.toggle(name, failure !== null);
      // The store must not reach back into this page.
      if (opened) {
        opened.opener = null;
        opened.location.replace(url);
      } else {
        location.assign(url);
      }
    })();
  });
}
