/**
 * The HTML part of every e-mail (messages/smtp-email.ts), in the site's look and the message's language: the
 * product's name as the header, the text in paragraphs with its parameters set off (the code large, the link a
 * link), a button for the kind's action link, and a footer linking back to the site.
 *
 * Mail clients drop style sheets, fetch nothing unasked and show SVG unreliably, so every style is inline, nothing
 * is fetched (no images, no web fonts: the system's own, as the site's) and the brand is text. The colours are the
 * site's light theme, declared light only: a client that darkens mail anyway inverts the whole of it, dark text on
 * light becoming light on dark, and the button's white on blue keeps its contrast.
 */
import { message, type MessageKey } from '../i18n/messages.ts';
import { escapeHtml as escape } from '../services/html.ts';
import { messageKinds, type MessageKind, type MessageKindDefinition, type OutgoingMessage } from './kinds.ts';
import { emailText } from './render.ts';

/** The product's name, the header of every e-mail. */
const productName = 'Beacon Toolkit';

/** The kinds whose e-mail has an action link (kinds.ts `action`), and the label of each one's button. */
type ActionKind = { [K in MessageKind]: (typeof messageKinds)[K] extends { action: string } ? K : never }[MessageKind];
const actionLabels: Record<ActionKind, MessageKey> = {
  emailLink: 'emailLinkButton',
  invoiceIssued: 'invoiceOrderButton',
  invoiceRefused: 'invoiceOrderButton',
  raffleWon: 'raffleClaimButton',
  raffleReminder: 'raffleClaimButton',
};

/** The site's light theme (src/styles/global.css). */
const colour = { page: '#f7f8fa', surface: '#ffffff', text: '#1c2330', muted: '#5b6678', border: '#d9dee7', accent: '#1a63d6', onAccent: '#ffffff' };
const font = "system-ui, -apple-system, 'Segoe UI', 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Malgun Gothic', Roboto, sans-serif";
const mono = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace";

/** Where parameter `index` goes in the text before it is escaped: private-use characters, which no catalog text holds. */
const marker = (index: number) => `\uE000${index}\uE001`;
const markers = /\uE000(\d+)\uE001/g;

/** Whether `value` is a web address, the only kind of link an e-mail holds. */
const isWebLink = (value: string) => /^https?:\/\//i.test(value);

/** A parameter's value as the HTML shows it: the action link a link, a code large, anything else in bold. */
function shownParameter(name: string, value: string, action: string | undefined): string {
  if (name === action && isWebLink(value)) return `<a href="${escape(value)}" style="color:${colour.accent};word-break:break-all">${escape(value)}</a>`;
  if (name === 'code') return `<strong style="font-family:${mono};font-size:1.25em;letter-spacing:0.08em;white-space:nowrap">${escape(value)}</strong>`;
  return `<strong>${escape(value)}</strong>`;
}

/** The e-mail's text as HTML paragraphs (a blank line parts them), every parameter escaped and set off. */
function paragraphs(outgoing: OutgoingMessage, action: string | undefined): string {
  const { params: names } = messageKinds[outgoing.kind];
  const values = outgoing.params as Record<string, string>;
  const marked = emailText({ ...outgoing, params: Object.fromEntries(names.map((name, index) => [name, marker(index)])) } as OutgoingMessage).text;
  return escape(marked)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim().replaceAll('\n', '<br>'))
    .filter(Boolean)
    .map((paragraph) => paragraph.replace(markers, (_, index: string) => shownParameter(names[Number(index)], values[names[Number(index)]], action)))
    .map((paragraph) => `<p style="margin:0 0 16px">${paragraph}</p>`)
    .join('\n');
}

/** The button that opens `link`. */
function button(link: string, label: string): string {
  const face = `display:inline-block;padding:12px 24px;border-radius:8px;background:${colour.accent};color:${colour.onAccent};font:600 16px/1.3 ${font};text-decoration:none`;
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px"><tr><td bgcolor="${colour.accent}" style="border-radius:8px;background:${colour.accent}"><a href="${escape(link)}" style="${face}">${escape(label)}</a></td></tr></table>`;
}

/** The HTML part of `outgoing`'s e-mail; `siteUrl` is the site's home page in the message's language, the footer's link. */
export function emailHtml(outgoing: OutgoingMessage, siteUrl: string): string {
  const { action } = messageKinds[outgoing.kind] as MessageKindDefinition;
  const { subject } = emailText(outgoing);
  const link = action && (outgoing.params as Record<string, string>)[action];
  const label = link && isWebLink(link) ? message(outgoing.locale, actionLabels[outgoing.kind as ActionKind]) : null;
  return `<!doctype html>
<html lang="${escape(outgoing.locale)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escape(subject)}</title>
</head>
<body style="margin:0;padding:0;background:${colour.page}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${colour.page}" style="background:${colour.page}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${colour.surface}" style="max-width:560px;background:${colour.surface};border:1px solid ${colour.border};border-radius:10px">
<tr><td style="padding:20px 28px;border-bottom:1px solid ${colour.border};font:700 20px/1.3 ${font};color:${colour.accent}">${productName}</td></tr>
<tr><td style="padding:24px 28px 12px;font:16px/1.65 ${font};color:${colour.text};overflow-wrap:anywhere">
${paragraphs(outgoing, action)}
${link && label ? button(link, label) : ''}
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px">
<tr><td align="center" style="padding:16px 28px;font:13px/1.5 ${font};color:${colour.muted}">${productName} · <a href="${escape(siteUrl)}" style="color:${colour.muted}">${escape(new URL(siteUrl).host)}</a></td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
