// The stored colour scheme, language and direction, before first paint (index.html says why this file).
try {
  const root = document.documentElement;
  const dark = localStorage.getItem('fc-color-scheme') === 'dark';
  root.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
  const lang = localStorage.getItem('fc-language');
  if (lang === 'en' || lang === 'fr' || lang === 'ar') {
    root.lang = lang;
    root.dir = lang === 'ar' ? 'rtl' : 'ltr';
  }
} catch {}
