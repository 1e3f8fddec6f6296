/** The languages the site is translated into. */
export const languages = ['en', 'ru'] as const;
export type Language = (typeof languages)[number];

/** Each language's name, written in that language, for the switcher. */
export const languageNames = { en: 'English', ru: 'Русский' } as const satisfies Record<Language, string>;

/** A stored or browser-reported language tag as one of ours; undefined when it is none of them. */
export function parseLanguage(tag: string | null | undefined): Language | undefined {
  const primary = tag?.toLowerCase().split('-')[0];
  return languages.find((language) => language === primary);
}

/** Each language's short code as the switcher shows it. */
export const languageShortNames = { en: 'EN', ru: 'RU' } as const satisfies Record<Language, string>;
