import type { LevelImage as Level, LevelColor } from '@forecourt/contract/rules';
import { useTranslation } from 'react-i18next';

const FILL: Record<Exclude<Level, null>, number> = {
  full: 1,
  'three-quarters': 0.75,
  half: 0.5,
  quarter: 0.25,
  empty: 0,
};
const LABEL: Record<Exclude<Level, null>, string> = {
  full: 'LEVEL_FULL',
  'three-quarters': 'LEVEL_THREE_QUARTERS',
  half: 'LEVEL_HALF',
  quarter: 'LEVEL_QUARTER',
  empty: 'LEVEL_EMPTY',
};

/** The level picture of battery and flash drive: a cell filled to its image's level, in its colour. */
export function LevelImage({ level, color }: { level: Level; color: LevelColor | null }) {
  const { t } = useTranslation();
  if (!level) return <div style={{ width: 36, height: 58 }} data-level="none" aria-hidden />;
  const fill = FILL[level];
  const inner = 60;
  const h = Math.round(inner * fill);
  const stroke = 'var(--mantine-color-dimmed)';
  return (
    <svg
      width={36}
      height={58}
      viewBox="0 0 44 72"
      role="img"
      aria-label={t('LEVEL_IMAGE', { level: t(LABEL[level]) })}
      data-level={level}
    >
      <rect x={15} y={1} width={14} height={6} rx={2} fill={stroke} />
      <rect x={3} y={7} width={38} height={64} rx={6} fill="none" stroke={stroke} strokeWidth={2.5} />
      {h > 0 && (
        <rect
          x={7}
          y={9 + (inner - h)}
          width={30}
          height={h}
          rx={3}
          fill={color ? `var(--fc-level-${color})` : stroke}
        />
      )}
    </svg>
  );
}
