import { Button, Card, Group, Text } from '@mantine/core';
import { ModalsProvider, modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import { WidgetCard } from '../../../../components/widget-card.tsx';
import { toast } from '../../../../lib/toast.ts';
import { UiFeaturePage } from './ui-feature-page.tsx';

export default function ModalsPage() {
  const { t } = useTranslation();
  // The confirm modal's provider sits with the only page that opens one: the frame does not carry it.
  return (
    <ModalsProvider>
      <UiFeaturePage title={t('UI_MODALS')} intro={t('UI_MODALS_TEXT')}>
        <WidgetCard
          title={t('INFO_MODAL_DEMO')}
          info={{ title: t('INFO_MODAL_DEMO'), description: t('INFO_MODAL_DEMO_TEXT') }}
        >
          <Text size="sm">{t('INFO_MODAL_DEMO_TEXT')}</Text>
        </WidgetCard>
        <Card>
          <Group>
            <Button
              onClick={() =>
                modals.openConfirmModal({
                  title: t('CONFIRM_DEMO'),
                  children: <Text size="sm">{t('CONFIRM_DEMO_TEXT')}</Text>,
                  labels: { confirm: t('OK'), cancel: t('CLOSE') },
                  closeButtonProps: { 'aria-label': t('CLOSE') },
                  onConfirm: () => toast.success(t('OK')),
                })
              }
            >
              {t('CONFIRM_DEMO')}
            </Button>
            <Button variant="light" onClick={() => toast.info(t('TOAST_DEMO_TEXT'), t('TOAST_DEMO'))}>
              {t('TOAST_DEMO')}
            </Button>
            <Button variant="light" color="red" onClick={() => toast.error(t('NETWORK_FAILED'), t('ERROR_'))}>
              {t('ERROR_')}
            </Button>
          </Group>
        </Card>
      </UiFeaturePage>
    </ModalsProvider>
  );
}
