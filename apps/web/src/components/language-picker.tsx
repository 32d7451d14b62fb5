import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n/languages.ts';

/** Switches the interface language; the catalogue is fetched on demand and the choice remembered. */
export function LanguagePicker({ withLabel = false }: { withLabel?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <NativeSelect
      size="xs"
      label={withLabel ? t('LANGUAGE') : undefined}
      aria-label={withLabel ? undefined : t('LANGUAGE')}
      value={LANGUAGES.some((l) => l.code === current) ? current : 'en'}
      data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
      onChange={(event) => void i18n.changeLanguage(event.currentTarget.value)}
      w={withLabel ? undefined : 104}
    />
  );
}
