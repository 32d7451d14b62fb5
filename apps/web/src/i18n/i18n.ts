import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storage } from '../lib/storage.ts';
import { fetchBackend } from './fetch-backend.ts';
import { applyDocumentLanguage, FALLBACK_LANGUAGE, LANGUAGE_KEY, LANGUAGES } from './languages.ts';
import { translationsUrl } from './translations-url.ts';

export function initialLanguage(): string {
  const saved = storage.get(LANGUAGE_KEY);
  return LANGUAGES.some((l) => l.code === saved) ? (saved as string) : FALLBACK_LANGUAGE;
}

/** i18next fetching `/assets/i18n/{lang}.json` (merged from the fragments by vite/i18n-plugin.ts). */
let initialised: Promise<unknown> = Promise.resolve();

/** Resolves once the last `createI18n` instance has its first language's translations (or gave up on them). */
export const translationsReady = (): Promise<unknown> => initialised;

export function createI18n(): I18n {
  const instance = i18next.createInstance();
  const lng = initialLanguage();
  // Before the first render, so an Arabic page is laid out right to left from the start.
  applyDocumentLanguage(lng);
  const init = instance
    .use(fetchBackend((lang) => translationsUrl(import.meta.env.BASE_URL, lang, __I18N_VERSION__)))
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: LANGUAGES.map((l) => l.code),
      load: 'languageOnly',
      interpolation: { escapeValue: false },
      returnEmptyString: false,
      react: { useSuspense: true },
    });
  initialised = init.catch(() => undefined);
  instance.on('languageChanged', (lng) => {
    storage.set(LANGUAGE_KEY, lng);
  });
  return instance;
}
