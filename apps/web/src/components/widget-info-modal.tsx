import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpenAfterMount } from './on-demand.tsx';

/** A widget's info-circle modal (widget-card.tsx), fetched when it first opens. */
export function WidgetInfoModal({
  opened,
  onClose,
  title,
  description,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={useOpenAfterMount(opened)}
      onClose={onClose}
      title={title}
      centered
      withCloseButton={false}
    >
      <Stack>
        <Text size="sm">{description}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('CLOSE')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
