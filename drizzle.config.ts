import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes a new migration after server/db/schema.ts changes. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
