// The stored colour scheme, language and direction, before first paint (index.html says why this file;
// the build fills the list below and minifies it: vite/first-view-preload-plugin.ts).
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
// Signed in, the session not expired: the first signed-in view's files, alongside the entry (index.html).
try {
  const token = localStorage.getItem('auth_app_token');
  let exp;
  try {
    exp = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp;
  } catch {}
  if (token && localStorage.getItem('user') && !(exp * 1000 <= Date.now()))
    for (const href of []) {
      const link = document.createElement('link');
      const css = href.endsWith('.css');
      link.rel = css ? 'preload' : 'modulepreload';
      link.setAttribute('as', css ? 'style' : 'script');
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
} catch {}
