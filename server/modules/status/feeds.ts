/**
 * The incident feeds (JSON Feed 1 and Atom) that status aggregators and the
 * desktop client read: the latest changes, titled in the language asked for,
 * each linking to the accelerate page in that language.
 */
import { Feed } from 'feed';
import type { LocaleCode } from '#contract/locales.ts';
import { noteFor, statusTargetName, type ServiceState, type StatusIncident } from '#contract/status.ts';
import { message, type MessageKey } from '../../i18n/messages.ts';
import { escapeHtml } from '../../services/html.ts';

const stateKeys: Record<ServiceState, MessageKey> = { up: 'statusUp', degraded: 'statusDegraded', down: 'statusDown' };

export interface FeedPlace {
  /** The accelerate page in the feed's language. */
  page: string;
  /** The feed's own addresses. */
  json: string;
  atom: string;
}

export function incidentFeed(incidents: StatusIncident[], locale: LocaleCode, place: FeedPlace): Feed {
  const feed = new Feed({
    title: message(locale, 'statusFeedTitle'),
    description: message(locale, 'statusFeedDescription'),
    id: place.page,
    link: place.page,
    language: locale,
    updated: incidents[0] ? new Date(incidents[0].At) : new Date(0),
    copyright: 'Beacon Toolkit',
    // RFC 4287 §4.1.1: a feed whose entries name no author names one itself.
    author: { name: 'Beacon Toolkit', link: place.page },
    feedLinks: { json: place.json, atom: place.atom },
  });
  for (const incident of incidents) {
    const note = incident.Note && noteFor(incident.Note, locale);
    feed.addItem({
      title: message(locale, 'statusIncident', { service: statusTargetName(incident.Key, locale), state: message(locale, stateKeys[incident.State]) }),
      id: `${place.page}#incident-${incident.Id}`,
      link: `${place.page}#incident-${incident.Id}`,
      // Feeds carry the summary as HTML: an operator's note is text, and stays text.
      description: escapeHtml(note?.text ?? message(locale, stateKeys[incident.State])),
      date: new Date(incident.At),
    });
  }
  return feed;
}

/** The Atom document, saying the language of its text on the root element (RFC 4287 §2, `xml:lang`), which the feed library leaves out. */
export function atomDocument(feed: Feed, locale: LocaleCode): string {
  const root = '<feed xmlns="http://www.w3.org/2005/Atom">';
  return feed.atom1().replace(root, `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${locale}">`);
}
