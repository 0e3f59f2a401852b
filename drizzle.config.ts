import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes a new migration after a table changes: server/db/schema.ts gathers them all from server/db/schema/. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
