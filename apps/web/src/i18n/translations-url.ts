/**
 * Where a language's translations are served: vite/i18n-plugin.ts writes them, `version` (the catalogues' content
 * hash) makes a changed catalogue a new address. i18next asks for them here (i18n.ts), and theme-init.js asks for
 * the stored language's ahead with a signed-in first view (app/boot/boot-plugin.ts writes it their addresses).
 */
export const translationsUrl = (base: string, lang: string, version: string): string =>
  `${base}assets/i18n/${lang}.json?v=${version}`;
