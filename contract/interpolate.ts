/**
 * The `{{name}}` placeholders of every message catalog — the server's
 * (`server/i18n/*.json`) and the site's (`content/i18n/*.json`) — filled in
 * one way on both sides. A placeholder with no value becomes empty.
 */
export function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
