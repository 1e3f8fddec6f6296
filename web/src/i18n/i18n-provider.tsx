import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { type Language, parseLanguage } from './language.ts';
import { en, type Messages } from './messages-en.ts';
import { ru } from './messages-ru.ts';

const catalogues = { en, ru } as const satisfies Record<Language, Messages>;

/** Where the chosen language is kept between visits. */
export const languageStorageKey = 'gateway.language';

export type I18n = {
  language: Language;
  messages: Messages;
  setLanguage: (language: Language) => void;
};

const I18nContext = createContext<I18n | undefined>(undefined);

/** The storage the language choice survives reloads in (`localStorage` in the browser). */
export type LanguageStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Provides the current language and its messages. The first visit follows the browser's language; a choice made
 * with the switcher is stored and wins from then on. Keeps `<html lang>` in step for screen readers and hyphenation.
 */
export function I18nProvider(props: { storage: LanguageStorage; browserLanguage: string; children: ReactNode }) {
  const { storage, browserLanguage } = props;
  const [language, setLanguageState] = useState<Language>(
    () => parseLanguage(readStored(storage)) ?? parseLanguage(browserLanguage) ?? 'en',
  );

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const setLanguage = useCallback(
    (next: Language) => {
      setLanguageState(next);
      try {
        storage.setItem(languageStorageKey, next);
      } catch {
        // Storage can be disabled (private mode, policy); the choice then lasts for this page only.
      }
    },
    [storage],
  );

  const value = useMemo(() => ({ language, messages: catalogues[language], setLanguage }), [language, setLanguage]);
  return <I18nContext value={value}>{props.children}</I18nContext>;
}

/** The current language and its messages. */
export function useI18n(): I18n {
  const i18n = use(I18nContext);
  if (!i18n) throw new Error('useI18n needs an <I18nProvider> above it');
  return i18n;
}

function readStored(storage: LanguageStorage): string | null {
  try {
    return storage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}
