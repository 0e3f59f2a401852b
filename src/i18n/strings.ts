/**
 * Islands translate with the dictionary entries their page handed down
 * (`stringsFor` in t.ts). Keys are the English dictionary's, so a mistyped key
 * does not compile; `{{name}}` placeholders are filled as everywhere else
 * (contract/interpolate.ts). A key that was not handed down throws rather than
 * showing itself on the page — and for an island that states its keys
 * (`Strings<K>`), the types already rule it out.
 */
import { interpolate } from '#contract/interpolate.ts';
import type { Strings, Translate, UiKey } from './t.ts';

export type { Strings, Translate, UiKey };

/** The translate function over `strings`: its keys are `K` when the island named them, any UI key otherwise. */
export function translator<K extends UiKey = never>(strings: Strings<K>): Translate<[K] extends [never] ? UiKey : K> {
  return (key, params) => {
    const template = strings[key];
    if (template === undefined) throw new Error(`UI string "${key}" was not handed down to this island (see stringsFor)`);
    return interpolate(template, params);
  };
}
