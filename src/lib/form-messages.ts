/**
 * The generic form messages (spec §5: required, length, range, type) for the
 * browser's own checks of a form's fields — required, minlength and maxlength,
 * min and max, a number's input, a type or pattern — in the page's language and
 * naming the field by its label, where the browser would say its own words in
 * its own language. Forms that check their fields themselves (noValidate) say
 * their fields' own messages, and the server says the same generic ones for a
 * field it refuses that has none (server/http/route.ts).
 */
import type { Translate } from '@/i18n/strings.ts';

/** The generic messages, shared with the server: what a page hands down to an island with a form (`stringsFor`). */
export const formMessageKeys = [
  'messages.fieldRequired',
  'messages.fieldTooShort',
  'messages.fieldTooLong',
  'messages.fieldTooSmall',
  'messages.fieldTooLarge',
  'messages.fieldNotNumber',
  'messages.fieldInvalid',
] as const;

export type FormKey = (typeof formMessageKeys)[number];

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;

/** A field's name as its label shows it: the label's own words, not those of a hint or of the field inside it. */
function fieldName(field: Field): string | null {
  const label = field.labels?.[0];
  const own = label ? [...label.childNodes].filter((node) => node.nodeType === 3 /* text */).map((node) => node.textContent ?? '') : [];
  return own.join('').trim() || field.getAttribute('aria-label');
}

/** The generic message for what the browser finds wrong with a field (its custom message aside), or null when nothing is, or the field has no name to give. */
export function validityMessage(field: Field, t: Translate<FormKey>): string | null {
  const { validity } = field;
  const name = fieldName(field);
  if (!name) return null;
  if (validity.valueMissing) return t('messages.fieldRequired', { field: name });
  if (validity.tooShort && 'minLength' in field) return t('messages.fieldTooShort', { field: name, min: field.minLength });
  if (validity.tooLong && 'maxLength' in field) return t('messages.fieldTooLong', { field: name, max: field.maxLength });
  if (validity.rangeUnderflow && 'min' in field) return t('messages.fieldTooSmall', { field: name, min: field.min });
  if (validity.rangeOverflow && 'max' in field) return t('messages.fieldTooLarge', { field: name, max: field.max });
  if (validity.badInput && field.type === 'number') return t('messages.fieldNotNumber', { field: name });
  if (validity.badInput || validity.typeMismatch || validity.patternMismatch || validity.stepMismatch) return t('messages.fieldInvalid', { field: name });
  return null;
}

/** Makes the browser's checks of every field inside `root` say the generic messages; gives back the undoing. */
export function sayFormMessages(root: HTMLElement, t: Translate<FormKey>): () => void {
  // The browser fires `invalid` at each field it refuses, then shows the first one's message: ours, once set.
  const invalid = (event: Event) => {
    if (!isField(event.target)) return;
    event.target.setCustomValidity('');
    event.target.setCustomValidity(validityMessage(event.target, t) ?? '');
  };
  // A message holds its field invalid: a changed value is checked afresh.
  const input = (event: Event) => {
    if (isField(event.target)) event.target.setCustomValidity('');
  };
  root.addEventListener('invalid', invalid, true);
  root.addEventListener('input', input, true);
  return () => {
    root.removeEventListener('invalid', invalid, true);
    root.removeEventListener('input', input, true);
  };
}
