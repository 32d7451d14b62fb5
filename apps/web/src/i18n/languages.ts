/** Languages with a complete catalogue; the picker lists these (docs: DESIGN "Wall screens and languages"). */
export const LANGUAGES = [
  { code: 'en', label: 'English', dir: 'ltr' },
  { code: 'fr', label: 'Français', dir: 'ltr' },
  { code: 'ar', label: 'العربية', dir: 'rtl' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export type TextDirection = 'ltr' | 'rtl';

export const FALLBACK_LANGUAGE = 'en';
export const LANGUAGE_KEY = 'fc-language';

/** The writing direction of a language: Arabic reads right to left, the rest (and unknown codes) left to right. */
export function languageDir(code: string | undefined | null): TextDirection {
  const base = (code ?? '').split('-')[0];
  return LANGUAGES.find((l) => l.code === base)?.dir ?? 'ltr';
}

/**
 * The locale numbers and dates are written in for a language. English keeps the day/month/year order the
 * console has always used (en-GB); the others follow their own conventions.
 */
export function formatLocale(code: string | undefined | null): string {
  const base = (code ?? '').split('-')[0];
  if (base === 'fr') return 'fr-FR';
  if (base === 'ar') return 'ar';
  return 'en-GB';
}

/** `<html lang dir>` follows the language, so the whole page (Mantine included) mirrors for Arabic. */
export function applyDocumentLanguage(code: string): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.lang = code;
  root.dir = languageDir(code);
}
