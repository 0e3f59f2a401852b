/**
 * The `{{name}}` placeholders of every message catalog — the server's
 * (`server/i18n/*.json`) and the site's (`content/i18n/*.json`) — filled in
 * one way on both sides. A placeholder with no value becomes empty.
 */

/** A `{{name}}` placeholder; the group is the name. */
export const placeholder = /\{\{\s*(\w+)\s*\}\}/g;

export function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(placeholder, (_, name: string) => String(params[name] ?? ''));
}
