/**
 * The header's session badge on every page, without an island: it reads the login
 * state from localStorage and, when logged in, swaps the login link for the
 * user's avatar and a menu with sign-out. The session store (and with it the
 * API client) is loaded only when it is needed: to refresh the user info of a
 * logged-in visitor once the page has loaded (its islands have started) —
 * saying so when that fails — or to sign out.
 */
import type { UserInfo } from '#contract/identity.ts';
import { isTokenValid, type AuthToken } from '@/lib/auth-token.ts';
import { h5AvatarUrl } from '@/lib/avatar.ts';
import { readJson, signedInClass, storageKeys, writeJson } from '@/lib/storage.ts';
import type { LoginNotice } from '@/stores/session.ts';

function render(slot: HTMLElement, template: HTMLTemplateElement, user: UserInfo | null): void {
  slot.querySelector('[data-session-badge]')?.remove();
  const login = slot.querySelector<HTMLElement>('[data-login-link]');
  if (login) login.hidden = user !== null;
  // Login prompts on the page follow the session as it changes (sign-out, expiry).
  document.documentElement.classList.toggle(signedInClass, user !== null);
  if (!user) return;
  const badge = template.content.firstElementChild!.cloneNode(true) as HTMLElement;
  badge.querySelector('img')!.src = h5AvatarUrl(user);
  badge.querySelector('[data-session-name]')!.textContent = user.NickName;
  const toggle = badge.querySelector('button[aria-haspopup]') as HTMLButtonElement;
  const menu = badge.querySelector('[role="menu"]') as HTMLElement;
  toggle.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
    toggle.setAttribute('aria-expanded', String(!menu.hidden));
  });
  badge.querySelector('[data-sign-out]')!.addEventListener('click', async () => {
    const session = await import('@/stores/session.ts');
    await session.logout();
  });
  slot.append(badge);
}

/**
 * Says what the login check found, below the session's place in the header, until dismissed: the login
 * ended (获取用户信息失败，请重新登录!, an alert by the login link), or the user info could not be fetched.
 */
function showNotice(notice: LoginNotice): void {
  const box = document.querySelector<HTMLElement>('[data-session-notice]');
  if (!box) return;
  const ended = 'key' in notice && notice.key === 'messages.userInfoFailed';
  const texts = JSON.parse(box.dataset.texts!) as Record<string, string>;
  const text = box.querySelector<HTMLElement>('[data-session-notice-text]')!;
  box.classList.toggle('notice-error', ended);
  text.setAttribute('role', ended ? 'alert' : 'status');
  text.textContent = 'text' in notice ? notice.text : texts[notice.key];
  box.hidden = false;
  box.querySelector('[data-session-notice-close]')!.addEventListener('click', () => (box.hidden = true), { once: true });
}

export function mountSessionBadge(slot: HTMLElement): void {
  const template = slot.querySelector<HTMLTemplateElement>('template[data-session-template]');
  if (!template) return;
  const token = readJson<AuthToken>(storageKeys.auth);
  let user = readJson<UserInfo>(storageKeys.user);
  // The login rules without a redirect: no valid token means no user info. The expired
  // token stays, so a page that needs login can still say the login expired.
  if (user && !isTokenValid(token)) {
    writeJson(storageKeys.user, null);
    user = null;
  }
  render(slot, template, user);
  if (!user) return;
  const refresh = async () => {
    const session = await import('@/stores/session.ts');
    // Drawn again only when the user changed: a badge drawn anew closes a menu the visitor may have just opened.
    let shown = JSON.stringify(user);
    session.$user.subscribe((current) => {
      if (shown !== (shown = JSON.stringify(current))) render(slot, template, current);
    });
    const { notice } = await session.checkLoginState();
    if (notice) showNotice(notice);
  };
  void import('@/stores/loading.ts').then(({ whenLoaded }) => whenLoaded(() => void refresh()));
}
