/**
 * The `{{name}}` placeholders of every string of the dictionaries
 * (`content/i18n/*.json`), the server's and the site's alike, filled in one
 * way on both sides. A placeholder with no value becomes empty.
 */

/** A `{{name}}` placeholder; the group is the name. */
export const placeholder = /\{\{\s*(\w+)\s*\}\}/g;

export function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(placeholder, (_, name: string) => String(params[name] ?? ''));
}
