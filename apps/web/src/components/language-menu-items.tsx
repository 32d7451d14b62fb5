import { Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { LANGUAGES } from '../i18n/languages.ts';
import { useCurrentLanguage } from './language-picker.tsx';

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
