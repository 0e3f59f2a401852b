/**
 * The generic form messages (src/lib/form-messages.ts) for what the browser
 * finds wrong with a field, on stand-in fields: the browser's verdict, the
 * field's bounds and its label as the DOM gives them.
 */
import { describe, expect, it } from 'vitest';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { translator } from '../../src/i18n/strings.ts';
import { stringsFor } from '../../src/i18n/t.ts';
import { formMessageKeys, validityMessage } from '../../src/lib/form-messages.ts';

type Verdict = Partial<Record<keyof ValidityState, boolean>>;

/** A field labelled `<label>{label}<input …/><span class="hint">{hint}</span></label>`, as the console's forms are. */
function field(
  verdict: Verdict,
  { label = 'Batch name', type = 'text', minLength = -1, maxLength = -1, min = '', max = '', ariaLabel = null as string | null } = {},
) {
  const text = (value: string) => ({ nodeType: 3, textContent: value });
  const element = (value: string) => ({ nodeType: 1, textContent: value });
  const labels = label ? [{ childNodes: [text(`\n  ${label}\n  `), element(''), element('Lower-case letters, digits and -')] }] : [];
  return {
    validity: { valid: Object.values(verdict).every((flag) => !flag), ...verdict },
    labels,
    type,
    minLength,
    maxLength,
    min,
    max,
    getAttribute: (name: string) => (name === 'aria-label' ? ariaLabel : null),
  } as unknown as HTMLInputElement;
}

const t = (code: LocaleCode) => translator(stringsFor(code, formMessageKeys));

describe('generic form messages', () => {
  it('name the field by its label’s own words and give the bound it breaks', () => {
    const en = t('en');
    expect(validityMessage(field({ valueMissing: true }), en)).toBe('Please fill in “Batch name”.');
    expect(validityMessage(field({ tooShort: true }, { minLength: 4 }), en)).toBe('“Batch name” must be at least 4 characters long.');
    expect(validityMessage(field({ tooLong: true }, { maxLength: 40 }), en)).toBe('“Batch name” must be at most 40 characters long.');
    expect(validityMessage(field({ rangeUnderflow: true }, { type: 'number', min: '1' }), en)).toBe('“Batch name” must be at least 1.');
    expect(validityMessage(field({ rangeOverflow: true }, { type: 'number', max: '500' }), en)).toBe('“Batch name” must be at most 500.');
    expect(validityMessage(field({ badInput: true }, { type: 'number' }), en)).toBe('“Batch name” must be a whole number.');
    expect(validityMessage(field({ patternMismatch: true }), en)).toBe('“Batch name” is not valid. Please check it.');
    expect(validityMessage(field({ badInput: true }, { type: 'date' }), en)).toBe('“Batch name” is not valid. Please check it.');
  });

  it('say them in the page’s language', () => {
    expect(validityMessage(field({ valueMissing: true }, { label: '批次名称' }), t('zh-CN'))).toBe('请填写“批次名称”。');
    expect(validityMessage(field({ tooLong: true }, { label: 'Название партии', maxLength: 40 }), t('ru'))).toBe(
      'Поле «Название партии» должно содержать не более 40 симв.',
    );
    expect(validityMessage(field({ valueMissing: true }, { label: '배치 이름' }), t('ko'))).toBe('“배치 이름” 항목을 입력해 주세요.');
    for (const code of localeCodes) expect(validityMessage(field({ tooShort: true }, { label: 'X', minLength: 7 }), t(code)), code).toMatch(/X.*7|7.*X/);
  });

  it('name a field without a label by its aria-label, and leave one with no name, or nothing wrong, to the browser', () => {
    const en = t('en');
    expect(validityMessage(field({ valueMissing: true }, { label: '', ariaLabel: 'Search' }), en)).toBe('Please fill in “Search”.');
    expect(validityMessage(field({ valueMissing: true }, { label: '' }), en)).toBeNull();
    expect(validityMessage(field({}), en)).toBeNull();
  });
});
