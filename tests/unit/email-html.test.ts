import { describe, expect, it } from 'vitest';
import { localeCodes } from '#contract/locales.ts';
import { message } from '../../server/i18n/messages.ts';
import { emailHtml } from '../../server/messages/email-html.ts';
import { messageKindNames, messageKinds, type OutgoingMessage } from '../../server/messages/kinds.ts';
import { emailText } from '../../server/messages/render.ts';

const site = 'https://beacon.test/ja/';
const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>&amp;';

/** Every parameter of `kind` set to `value`. */
const withParams = (kind: OutgoingMessage['kind'], value: (name: string) => string, locale: OutgoingMessage['locale'] = 'ja') =>
  ({ to: 'reader@example.com', kind, locale, params: Object.fromEntries(messageKinds[kind].params.map((name) => [name, value(name)])) }) as OutgoingMessage;

describe('the HTML part of an e-mail', () => {
  it.each(messageKindNames)('%s escapes every parameter and fetches nothing', (kind) => {
    const html = emailHtml(
      withParams(kind, () => hostile),
      site,
    );
    // No element but the template's own, and nothing for a mail client to fetch (an attribute's escaped value aside).
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<(script|img|link|svg|style|iframe|object)\b|<[^>]*\ssrc=|@import|url\(/i);
    expect(html).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('&#38;amp;');
    // Nothing of the message is lost: each of its parameters is in it.
    expect(html.split('&#60;script&#62;').length - 1).toBeGreaterThanOrEqual(messageKinds[kind].params.length);
  });

  it.each(localeCodes)('is in %s: its language, subject, text and footer link', (locale) => {
    const outgoing = withParams('loginCode', () => '493817', locale);
    const html = emailHtml(outgoing, site);
    expect(html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${locale}" dir="ltr">`));
    expect(html).toContain(`<title>${emailText(outgoing).subject}</title>`);
    expect(html).toContain('493817');
    expect(html).toMatch(/<a href="https:\/\/beacon\.test\/ja\/" style="[^"]*">beacon\.test<\/a>/);
  });

  it('has a button only for a kind with an action link, to that link, labelled in the reader’s language', () => {
    const link = 'https://beacon.test/ru/verification/email/confirm?token=abc&x=1';
    const html = emailHtml(
      withParams('emailLink', (name) => (name === 'link' ? link : 'new@example.com'), 'ru'),
      site,
    );
    const buttons = [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].filter(([, , label]) => label === message('ru', 'emailLinkButton'));
    expect(buttons.map(([, href]) => href)).toEqual(['https://beacon.test/ru/verification/email/confirm?token=abc&#38;x=1']);
    // A link of another scheme is no link.
    const scripted = emailHtml(
      withParams('emailLink', (name) => (name === 'link' ? 'javascript:alert(1)' : 'new@example.com')),
      site,
    );
    expect(scripted).not.toContain('href="javascript:');
    expect(scripted).toContain('javascript:alert(1)');
    // A code's e-mail links only back to the site.
    expect(
      emailHtml(
        withParams('loginCode', () => '493817'),
        site,
      ).match(/<a /g),
    ).toHaveLength(1);
  });
});
