import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A tag is read whole: its badge never cuts it short, so a narrow column grows to the longest tag instead. */
const WHOLE = {
  root: { maxWidth: 'none', flexShrink: 0 },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

export interface TagBadgesProps {
  /** The terminal's tags (docs/targets.md), shown as given: already lowercased. */
  tags: readonly string[];
}

/** A terminal's tags as small badges, read as one list ("Tags: canary, model-ux300"); a dash when it has none. */
export function TagBadges({ tags }: TagBadgesProps) {
  const { t } = useTranslation();
  if (!tags.length) {
    return (
      <Text c="dimmed" size="sm" aria-label={t('TAGS_NONE')}>
        –
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap" role="list" aria-label={t('TAGS_OF', { tags: tags.join(', ') })}>
      {tags.map((tag) => (
        <Badge
          key={tag}
          role="listitem"
          size="sm"
          variant="light"
          radius="sm"
          tt="none"
          fw={500}
          styles={WHOLE}
        >
          {tag}
        </Badge>
      ))}
    </Group>
  );
}
