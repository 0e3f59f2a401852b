/**
 * Maps a request path to a file of the built site. Locales are recognised by
 * the folders the build made (`en/not-found/…`), so the server needs no copy
 * of the site's locale table.
 */

export type IsFile = (relative: string) => Promise<boolean>;

/** Safe relative form of a URL path, or null for anything that tries to leave the site folder. */
function relativePath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((s) => s === '..')) return null;
  return decoded.replace(/^\/+/, '');
}

/** The locale folder a path starts with ('' for the unprefixed default locale). */
async function localeFolder(relative: string, isFile: IsFile): Promise<string> {
  const first = relative.split('/')[0];
  return first && (await isFile(`${first}/not-found/index.html`)) ? `${first}/` : '';
}

/**
 * The file that answers a path: the file itself, or the folder's index.html.
 * Any path below /raffle/ shows the raffle page (spec §2: its catch-all child).
 */
export async function resolveSitePath(pathname: string, isFile: IsFile): Promise<string | null> {
  const relative = relativePath(pathname);
  if (relative === null) return null;
  const candidates = relative === '' || relative.endsWith('/') ? [`${relative}index.html`] : [relative, `${relative}/index.html`];
  for (const candidate of candidates) if (await isFile(candidate)) return candidate;
  const prefix = await localeFolder(relative, isFile);
  if (relative.slice(prefix.length).startsWith('raffle/')) return `${prefix}raffle/index.html`;
  return null;
}

/** The not-found page for a path: the locale's own, and the account centre's under /account. */
export async function notFoundPage(pathname: string, isFile: IsFile): Promise<string> {
  const relative = relativePath(pathname) ?? '';
  const prefix = await localeFolder(relative, isFile);
  const rest = relative.slice(prefix.length);
  return rest === 'account' || rest.startsWith('account/') ? `${prefix}account/not-found/index.html` : `${prefix}not-found/index.html`;
}
