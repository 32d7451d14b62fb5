/** Languages with a complete catalogue; the picker lists these. */
export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'fr', label: 'Français' },
] as const;

export const FALLBACK_LANGUAGE = 'en';
export const LANGUAGE_KEY = 'fc-language';
