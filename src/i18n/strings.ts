/**
 * Islands get only the dictionary keys they show, handed down by their page;
 * this translates with them, `{{name}}` placeholders included. A key that was
 * not handed down shows as itself.
 */
export type Strings = Record<string, string>;

export function translator(strings: Strings): (key: string, params?: Record<string, string | number>) => string {
  return (key, params = {}) => (strings[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
