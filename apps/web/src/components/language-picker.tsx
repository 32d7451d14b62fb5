import { Menu, NativeSelect } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n/languages.ts';

function useCurrentLanguage() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  const value = LANGUAGES.some((l) => l.code === current) ? current : 'en';
  const choose = (code: string) => void i18n.changeLanguage(code);
  return { t, value, choose };
}

/**
 * Switches the interface language; the catalogue is fetched on demand and the choice remembered.
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

/** The same choice as menu entries, for the user menu: each language named in itself, the current one ticked. */
export function LanguageMenuItems() {
  const { t, value, choose } = useCurrentLanguage();
  return (
    <>
      <Menu.Label>
        <IconLanguage size={12} aria-hidden /> {t('LANGUAGE')}
      </Menu.Label>
      {LANGUAGES.map((l) => (
        <Menu.Item
          key={l.code}
          aria-current={l.code === value ? 'true' : undefined}
          lang={l.code}
          onClick={() => choose(l.code)}
          rightSection={l.code === value ? <IconCheck size={14} aria-hidden /> : undefined}
        >
          {l.label}
        </Menu.Item>
      ))}
    </>
  );
}
