// The stored colour scheme, language and direction, before first paint (index.html says why this file;
// the build fills the list below and minifies it: app/boot/boot-plugin.ts).
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
// Signed in, the session not expired: the files of the first view the address names (a dashboard's, else the
// page frame's), alongside the entry (index.html). The build writes the routes and their files (app/boot/plan.ts):
// [route path as the route table has it, files], the frame's last under '*'. And the translations of the stored
// language (the document's, index.html's English unless one is stored) and of the fallback (i18next reads both),
// which i18next would ask for only once the entry has run: the last request before a dashboard's first paint on a
// phone. The build writes their addresses by language. In dev both lists stay empty.
try {
  const token = localStorage.getItem('auth_app_token');
  let exp;
  try {
    exp = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp;
  } catch {}
  const views = [];
  const translations = {};
  const at = location.hash.slice(1).split('?')[0].split('/').filter(Boolean);
  const view = views.find(([route]) => {
    const parts = route.split('/');
    return (
      route === '*' || (parts.length === at.length && parts.every((p, i) => p[0] === ':' || p === at[i]))
    );
  });
  if (view && token && localStorage.getItem('user') && !(exp * 1000 <= Date.now()))
    for (const href of new Set([...view[1], translations[document.documentElement.lang], translations.en])) {
      if (!href) continue;
      const link = document.createElement('link');
      const as = href.endsWith('.css') ? 'style' : href.endsWith('.js') ? 'script' : 'fetch';
      link.rel = as === 'script' ? 'modulepreload' : 'preload';
      link.setAttribute('as', as);
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
} catch {}
