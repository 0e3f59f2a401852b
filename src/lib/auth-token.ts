/**
 * The auth token and its one validity rule: it holds until its expiry time. Its own small
 * module so the header's session badge can check a stored token without
 * loading the session store and the API client behind it.
 */

/** What is stored locally after login: the access token and when it expires. */
export interface AuthToken {
  AccessToken: string;
  /** Milliseconds since the epoch. */
  ExpiresIn: number;
}

/** Whether there is a token and its expiry is still ahead. */
export function isTokenValid(token: AuthToken | null, now = Date.now()): token is AuthToken {
  return token !== null && token.ExpiresIn > now;
}
