import { Group, Switch, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { analytics } from '../lib/analytics.ts';
import { themeOf } from '../theme/theme.ts';

export interface ThemeSwitchProps {
  /** @default 'md' */
  size?: 'xs' | 'sm' | 'md';
  /** Show the 'Light' text on the unchecked side. @default true */
  withLightLabel?: boolean;
  /** Hide the 'Light' text on phones, where the row is short of room. @default false */
  compact?: boolean;
}

/**
 * The Light / Cosmic toggle: checked means cosmic. Every toggle records a `switchTheme` analytics
 * event (analytics is off unless configured). Mantine persists the choice.
 */
export function ThemeSwitch({ size = 'md', withLightLabel = true, compact = false }: ThemeSwitchProps) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  return (
    <Group gap={8} wrap="nowrap" className="fc-theme-switch">
      {withLightLabel && (
        <Text size={size} c="dimmed" aria-hidden visibleFrom={compact ? 'xs' : undefined}>
          {t('THEME_LIGHT')}
        </Text>
      )}
      <Switch
        size={size}
        checked={scheme === 'dark'}
        label={t('THEME_COSMIC')}
        onChange={(event) => {
          const next = event.currentTarget.checked ? 'dark' : 'light';
          setColorScheme(next);
          analytics.trackEvent('switchTheme', themeOf(next));
        }}
      />
    </Group>
  );
}
