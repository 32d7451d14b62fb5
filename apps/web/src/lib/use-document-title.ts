import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The browser tab's title while a screen is shown (`<title> · Forecourt`); the previous one comes back after. */
export function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  const appName = t('APP_NAME');
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · ${appName}`;
    return () => {
      document.title = previous;
    };
  }, [title, appName]);
}
