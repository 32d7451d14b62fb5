// Apply the stored colour scheme before first paint (no flash of the wrong theme). A file, not an inline
// script: the Content-Security-Policy allows scripts from the console's own origin only (docs/deploying.md).
try {
  document.documentElement.setAttribute(
    'data-mantine-color-scheme',
    localStorage.getItem('fc-color-scheme') === 'dark' ? 'dark' : 'light',
  );
} catch {}
// Likewise the stored language and its direction (src/i18n/languages.ts): Arabic lays the page out right to left.
try {
  const fcLanguage = localStorage.getItem('fc-language');
  if (fcLanguage === 'en' || fcLanguage === 'fr' || fcLanguage === 'ar') {
    document.documentElement.lang = fcLanguage;
    document.documentElement.dir = fcLanguage === 'ar' ? 'rtl' : 'ltr';
  }
} catch {}
