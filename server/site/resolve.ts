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

/** Whether a path is one of the `hidden` pages (named without locale or index.html) in some locale. */
async function isHidden(relative: string, isFile: IsFile, hidden: ReadonlySet<string>): Promise<boolean> {
  if (hidden.size === 0) return false;
  const rest = relative.slice((await localeFolder(relative, isFile)).length);
  return hidden.has(rest.replace(/\/(index\.html)?$/, ''));
}

/**
 * The file that answers a path and its status: the file itself or the folder's
 * index.html, unless the page is `hidden`; the raffle page for anything below
 * /raffle/ (its catch-all child); otherwise the locale's not-found
 * page (the account centre's under /account) with 404.
 */
export async function resolveSitePath(pathname: string, isFile: IsFile, hidden: ReadonlySet<string> = new Set()): Promise<{ file: string; status: 200 | 404 }> {
  const relative = relativePath(pathname);
  if (relative !== null && !(await isHidden(relative, isFile, hidden))) {
    const candidates = relative === '' || relative.endsWith('/') ? [`${relative}index.html`] : [relative, `${relative}/index.html`];
    for (const candidate of candidates) if (await isFile(candidate)) return { file: candidate, status: 200 };
  }
  const prefix = await localeFolder(relative ?? '', isFile);
  const rest = (relative ?? '').slice(prefix.length);
  if (rest.startsWith('raffle/')) return { file: `${prefix}raffle/index.html`, status: 200 };
  const account = rest === 'account' || rest.startsWith('account/');
  return { file: `${prefix}${account ? 'account/' : ''}not-found/index.html`, status: 404 };
}
