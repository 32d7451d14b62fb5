import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Every fragment of every language, merged as the Vite plugin merges them. */
const fragments = import.meta.glob<Record<string, string>>('../i18n/locales/*/*.json', {
  eager: true,
  import: 'default',
});

export function catalogues(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [file, data] of Object.entries(fragments)) {
    const lang = file.split('/').at(-2) as string;
    out[lang] = { ...(out[lang] ?? {}), ...data };
  }
  return out;
}

/** A synchronous i18next instance with the real English (and other) catalogues, for tests. */
export function createTestI18n(lng = 'en'): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(Object.entries(catalogues()).map(([l, c]) => [l, { translation: c }]));
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}
