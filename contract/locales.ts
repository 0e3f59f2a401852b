/** The eight interface languages; the site's locale table and the server's messages both follow this list. */
export const localeCodes = ['zh-CN', 'zh-TW', 'en', 'es', 'it', 'ja', 'ko', 'ru'] as const;

export type LocaleCode = (typeof localeCodes)[number];

export const defaultLocale: LocaleCode = 'zh-CN';
