import { ticketError } from '@forecourt/contract/tickets';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput, UnstyledButton } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WidgetCard } from '../../../components/widget-card.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { createTicket } from '../api/create-ticket.ts';

/** The ticket modal: subject, body (5 rows), a red error line, Close and Submit. */
export function TicketModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    onClose();
    setError(null);
  };

  const mutation = useMutation({
    mutationFn: createTicket,
    onSuccess: (result) => {
      if (result.error) {
        toast.error(result.error_text, t('ERROR_'));
        return;
      }
      toast.success(t('TICKET_CREATED_SUCCESFULLY'));
      setSubject('');
      setBody('');
      close();
    },
    onError: (err) => toast.error(errorText(err), t('ERROR_')),
  });

  // Once an error shows, it follows the fields: subject first, then body; it clears when both are there.
  const revalidate = (s: string, b: string) => {
    if (error) setError(ticketError(s, b));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = ticketError(subject, body);
    setError(problem);
    if (problem || mutation.isPending) return;
    mutation.mutate({ subject: subject.trim(), body });
  };

  return (
    <Modal opened={opened} onClose={close} title={t('TICKET_TITLE')} centered withCloseButton={false}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('TICKET_SUBJECT')}
            value={subject}
            maxLength={200}
            data-autofocus
            onChange={(e) => {
              const v = e.currentTarget.value;
              setSubject(v);
              revalidate(v, body);
            }}
          />
          <Textarea
            label={t('TICKET_BODY')}
            rows={5}
            value={body}
            maxLength={20_000}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setBody(v);
              revalidate(subject, v);
            }}
          />
          <Text c="red" size="sm" role="alert" mih={20} data-testid="ticket-error">
            {error ? t(error) : ''}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('CLOSE')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t('SUBMIT')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Support: a clickable block that opens the ticket modal. */
export function Support() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <WidgetCard
      title={t('SUPPORT')}
      info={{ title: t('SUPPORT'), description: t('SUPPORT_INFO') }}
      height={220}
      data-testid="support"
    >
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        w="100%"
        p="sm"
        style={{
          borderRadius: 'var(--mantine-radius-md)',
          border: '1px dashed var(--mantine-color-default-border)',
        }}
        className="fc-support-block"
      >
        <Group wrap="nowrap" gap="md" justify="center">
          <IconHeadset size={56} stroke={1.4} color="var(--mantine-primary-color-filled)" aria-hidden />
          <Stack gap={2}>
            <Text fw={700}>{t('SUPPORT_OPEN')}</Text>
            <Text size="sm" c="dimmed">
              {t('SUPPORT_CLICK_TO_CONTACT')}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
      <TicketModal opened={open} onClose={() => setOpen(false)} />
    </WidgetCard>
  );
}
