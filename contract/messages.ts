/**
 * The error messages that the server and the site
 * both say, or that name the same situation on either side: one text per
 * locale in contract/messages/<locale>.json. The server's catalogue
 * (server/i18n/messages.ts) and the site's dictionaries (src/i18n/t.ts) read
 * them from there, so a customer never reads one situation worded two ways
 * (tests/unit/shared-messages.test.ts).
 *
 * Only the key type lives here: each side reads the files its own way, so no
 * page bundles the eight catalogues.
 */
export type SharedMessageKey = keyof typeof import('./messages/en.json');
