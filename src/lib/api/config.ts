/**
 * Where the API is. The site and the API share an origin unless
 * PUBLIC_API_ORIGIN (`https://api.example.com`) says otherwise at build time.
 * Nothing else of a server is baked in: the key for encrypted calls is asked
 * of the server (client.ts), so one build serves every data folder and every
 * deployment on that origin.
 */
export const apiBase = `${(import.meta.env.PUBLIC_API_ORIGIN ?? '').replace(/\/$/, '')}/api`;

/** The HTTP timeout: 100 s. */
export const requestTimeoutMs = 100_000;
