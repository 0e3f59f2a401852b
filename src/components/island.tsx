/**
 * What every island shows the same way: an action's outcome as one notice in
 * the page's language (the server's own words for a refusal), the placeholder
 * while its data loads, and the way in for a visitor who is not logged in.
 * A 401 needs nothing here: the page's one handler (`requireLogin`) takes the
 * user to login.
 */
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import type { Notice, NoticeParams } from '@/stores/action.ts';
import { loginUrl } from '@/stores/session.ts';

/**
 * An action's outcome (a store's `$notice`): a success is a polite status, a
 * failure an alert, each with its colour and mark (global.css `.notice-*`).
 */
export function NoticeLine<K extends string>({ notice, t }: { notice: Notice<K> | null; t: (key: K | FailureMessageKey, params?: NoticeParams) => string }) {
  if (!notice) return null;
  return (
    <p className={`notice ${notice.kind === 'ok' ? 'notice-ok' : 'notice-error'}`} role={notice.kind === 'ok' ? 'status' : 'alert'}>
      {'text' in notice ? notice.text : t(notice.key, notice.params)}
    </p>
  );
}

/**
 * The island's placeholder until its data is there. `announce: false` inside a
 * part that speaks for itself already (aria-live) or beside the page's own
 * status; `reserve` keeps the viewport's height free, as the page's fallback
 * did (IslandFallback.astro), for a live island before the rest of its page.
 */
export function Loading({ text, announce = true, reserve = false }: { text: string; announce?: boolean; reserve?: boolean }) {
  return (
    // data-loading: the browser tests wait until no island shows one before they check a page.
    <p className={reserve ? 'muted island-reserve' : 'muted'} role={announce ? 'status' : undefined} data-loading>
      {text}
    </p>
  );
}

/** The way in for a visitor who is not logged in: the login page, which comes back here afterwards. */
export function LoginLink({ locale, text }: { locale: LocaleCode; text: string }) {
  return (
    <a className="button" href={loginUrl(localizePath(locale, '/account/login'))}>
      {text}
    </a>
  );
}
