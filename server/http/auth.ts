/**
 * Who is calling. The contract says which calls need whom; the modules that
 * know the answers provide them as decorators — identity the sessions behind
 * bearer tokens, admin the operators' command — so this layer never imports a
 * module.
 */

export interface Authenticated {
  userId: number;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The session behind a valid access token, or null (the identity module provides it). */
    authenticate(accessToken: string): Promise<Authenticated | null>;
    /** Whether a request comes from the operators' command on this machine (the admin module provides it). */
    isAdminCaller(request: FastifyRequest): boolean;
  }
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match ? match[1] : null;
}
