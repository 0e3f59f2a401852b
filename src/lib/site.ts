/** Site-wide facts every layer shows: product name, versions, outside links. */
import { facts } from '#contract/facts.ts';
import iconUrl from '@/assets/favicon.svg?url&no-inline';
import { loadReleases } from './releases.ts';

const releases = loadReleases();

export const site = {
  name: 'Beacon Toolkit',
  /** The logo and favicon, under a content-hashed name the server lets browsers keep forever. */
  icon: iconUrl,
  /** App version. */
  version: releases.version,
  /** Version of the download-site layer. */
  clientVersion: releases.clientVersion,
  sourceUrl: releases.mirrors.github.about,
  supportEmail: facts.contact.supportEmail,
};
