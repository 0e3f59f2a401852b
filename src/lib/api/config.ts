/**
 * Where the API is and the key its encrypted calls use. The site and the API
 * share an origin unless PUBLIC_API_URL says otherwise at build time; the
 * server's public key is baked in at build time (PUBLIC_API_PUBLIC_KEY), and
 * when the build has none the client asks the server for it (client.ts).
 */
export const apiBase = `${(import.meta.env.PUBLIC_API_URL ?? '').replace(/\/$/, '')}/api`;

/** The HTTP timeout of spec §9. */
export const requestTimeoutMs = 100_000;

/** The server's RSA public key (SPKI, base64) as baked into this build, if it was. */
export const bakedPublicKey: string | undefined = import.meta.env.PUBLIC_API_PUBLIC_KEY || undefined;
