/**
 * The messages that the server and the site both say, or that name the same
 * situation on either side: the `messages` part of each locale's dictionary
 * (content/i18n/<locale>.json). The server reads them beside its own `server`
 * part (server/i18n/messages.ts), the site beside its `site` and `console`
 * parts as `messages.<key>` (src/i18n/t.ts), so a customer never reads one
 * situation worded two ways (tests/unit/shared-messages.test.ts).
 *
 * Only the key type lives here: each side reads the file its own way, so no
 * page bundles the eight dictionaries.
 */
export type SharedMessageKey = keyof (typeof import('../content/i18n/en.json'))['messages'];
