import {
  type Icon,
  IconCloud,
  IconCloudFilled,
  IconCloudQuestion,
  IconCloudRain,
  IconCloudSnow,
  IconCloudStorm,
  IconMist,
  IconMoonStars,
  IconSun,
  IconSunLow,
} from '@tabler/icons-react';

/** OpenWeatherMap icon codes ('01d' … '50n') drawn with bundled icons: nothing is fetched from a weather site. */
export function weatherIconOf(code: string): { icon: Icon; color: string } {
  const group = code.slice(0, 2);
  const night = code.endsWith('n');
  switch (group) {
    case '01':
      return night
        ? { icon: IconMoonStars, color: 'var(--mantine-color-indigo-4)' }
        : { icon: IconSun, color: 'var(--mantine-color-yellow-6)' };
    case '02':
      return { icon: night ? IconCloud : IconSunLow, color: 'var(--mantine-color-yellow-5)' };
    case '03':
      return { icon: IconCloud, color: 'var(--mantine-color-gray-5)' };
    case '04':
      return { icon: IconCloudFilled, color: 'var(--mantine-color-gray-6)' };
    case '09':
    case '10':
      return { icon: IconCloudRain, color: 'var(--mantine-color-blue-5)' };
    case '11':
      return { icon: IconCloudStorm, color: 'var(--mantine-color-violet-5)' };
    case '13':
      return { icon: IconCloudSnow, color: 'var(--mantine-color-cyan-4)' };
    case '50':
      return { icon: IconMist, color: 'var(--mantine-color-gray-5)' };
    default:
      return { icon: IconCloudQuestion, color: 'var(--mantine-color-gray-5)' };
  }
}

export interface WeatherIconProps {
  /** Icon code of the forecast ('' when missing: nothing is drawn). */
  code: string;
  /** Accessible text (the condition's description); decorative when omitted. */
  label?: string;
  size?: number;
}

export function WeatherIcon({ code, label, size = 24 }: WeatherIconProps) {
  if (!code) return null;
  const { icon: Glyph, color } = weatherIconOf(code);
  return (
    <Glyph
      size={size}
      color={color}
      stroke={1.6}
      role={label ? 'img' : undefined}
      aria-label={label || undefined}
      aria-hidden={label ? undefined : true}
      data-icon={code}
    />
  );
}
