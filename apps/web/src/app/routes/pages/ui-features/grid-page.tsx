import { Grid, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WidgetCard } from '../../../../components/widget-card.tsx';
import { ApiError } from '../../../../lib/api-client.ts';
import { UiFeaturePage } from './ui-feature-page.tsx';

export default function GridPage() {
  const { t } = useTranslation();
  return (
    <UiFeaturePage title={t('UI_GRID')} intro={t('UI_GRID_TEXT')}>
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <WidgetCard
            title="span 8"
            info={{ title: t('INFO_MODAL_DEMO'), description: t('INFO_MODAL_DEMO_TEXT') }}
          >
            <Text size="sm">{t('UI_GRID_TEXT')}</Text>
          </WidgetCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <WidgetCard title="span 4">
            <Text size="sm">12 / 3</Text>
          </WidgetCard>
        </Grid.Col>
      </Grid>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <WidgetCard title={t('LOADING')} loading height={220} />
        <WidgetCard title={t('NO_DATA')} empty emptyMessage={t('NO_EVENTS')} height={220} />
        <WidgetCard
          title={t('WIDGET_ERROR')}
          error={new ApiError({ status: 503, kind: 'http', errors: ['Service unavailable'] })}
          onRetry={() => {}}
          height={220}
        />
        <WidgetCard title="220 px" height={220} updatedAt={Date.now()}>
          <Text size="sm">{t('UI_GRID_TEXT')}</Text>
        </WidgetCard>
      </SimpleGrid>
    </UiFeaturePage>
  );
}
