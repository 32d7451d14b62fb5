import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n/languages.ts';

export function useCurrentLanguage() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  const value = LANGUAGES.some((l) => l.code === current) ? current : 'en';
  const choose = (code: string) => void i18n.changeLanguage(code);
  return { t, value, choose };
}

/**
 * Switches the interface language (a native select: the sign-in screens carry no menu code, see
 * language-menu-items.tsx for the user menu's entries); the catalogue is fetched on demand and the choice remembered.
 * Arabic turns the console right to left at once (app/providers.tsx).
 */
export function LanguagePicker({ withLabel = false }: { withLabel?: boolean }) {
  const { t, value, choose } = useCurrentLanguage();
  return (
    <NativeSelect
      size="xs"
      label={withLabel ? t('LANGUAGE') : undefined}
      aria-label={withLabel ? undefined : t('LANGUAGE')}
      value={value}
      data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
      onChange={(event) => choose(event.currentTarget.value)}
      w={withLabel ? undefined : 104}
    />
  );
}
