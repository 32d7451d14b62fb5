import { Button, Group, Popover, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type AnchoredProps, ElementTarget, useOpenAfterMount } from '../on-demand.tsx';

/** Anchored to the Ack button (alert-ack.tsx). */
export interface AckFormProps extends AnchoredProps {
  note: string;
  onNote: (note: string) => void;
  onSubmit: () => void;
  pending: boolean;
  /** Why the last try failed, already translated. */
  error?: string;
}

/** The small form under an alert's Ack button (alert-ack.tsx), fetched when it first opens. */
export function AckForm({
  id,
  target,
  opened,
  onChange,
  note,
  onNote,
  onSubmit,
  pending,
  error,
}: AckFormProps) {
  const { t } = useTranslation();
  return (
    <Popover
      id={id}
      opened={useOpenAfterMount(opened)}
      onChange={onChange}
      position="bottom-end"
      withArrow
      trapFocus
      shadow="md"
    >
      <Popover.Target>
        <ElementTarget element={target} />
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <Stack gap="xs" w={240}>
            <Textarea
              label={t('ACK_NOTE')}
              value={note}
              onChange={(e) => onNote(e.currentTarget.value)}
              maxLength={500}
              rows={2}
              data-autofocus
            />
            {error !== undefined && (
              <Text size="xs" c="red" role="alert">
                {t('ACK_FAILED', { error })}
              </Text>
            )}
            <Group justify="flex-end">
              <Button type="submit" size="xs" loading={pending}>
                {t('ACKNOWLEDGE')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
