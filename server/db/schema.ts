/**
 * The database schema (Drizzle, Postgres dialect): every table, gathered from
 * schema/, one file per module that owns the tables (schema/raffle.ts holds
 * server/modules/raffle/'s). One migration set, generated from this file with
 * `npm run db:generate`, runs on PGlite and PostgreSQL alike; what needs every
 * table (drizzle-kit, opening the database, backups, tests) reads it here, and
 * a module imports the tables it uses from their owner's file.
 *
 * The tables live here, not in the modules' folders, because the import
 * boundaries (eslint.config.js) would otherwise break twice: infrastructure
 * (this folder's opening and backups) never imports a module, and modules never
 * import each other, yet other modules' tables reference identity's `users`.
 * A file here is infrastructure that each module may read; a new module's
 * tables get a file of their own and a line below.
 */
export * from './schema/identity.ts';
export * from './schema/cloud-idle.ts';
export * from './schema/commerce.ts';
export * from './schema/invoices.ts';
export * from './schema/activation.ts';
export * from './schema/donation.ts';
export * from './schema/raffle.ts';
export * from './schema/plugins.ts';
export * from './schema/status.ts';
export * from './schema/operators.ts';
export * from './schema/server-keys.ts';
