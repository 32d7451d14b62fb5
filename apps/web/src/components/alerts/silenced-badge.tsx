import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Marks an alert raised while a maintenance window covered its terminal (docs/rules-and-maintenance.md). */
export function SilencedBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="outline" color="gray" className="fc-silenced" title={t('SILENCED_HINT')}>
      {t('SILENCED')}
    </Badge>
  );
}

/** A silenced alert's row is dimmed (its badge says why in words). */
export const SILENCED_ROW_STYLE = { opacity: 0.62 } as const;
