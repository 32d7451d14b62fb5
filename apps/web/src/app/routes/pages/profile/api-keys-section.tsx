import { type ApiKey, type ApiKeyCreated, ApiKeyCreateSchema } from '@forecourt/contract/api-keys';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  useMantineTheme,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopySecretActions, DialogActions } from '../../../../components/page-parts.tsx';
import { useDateWriters } from '../../../../i18n/format.ts';
import { errorText } from '../../../../lib/api-client.ts';
import { toast } from '../../../../lib/toast.ts';
import { apiKeysQuery, createApiKey, deleteApiKey } from './api/api-keys.ts';

/** Expiry choices of a new key: days from now, or none. */
const EXPIRIES = { never: null, d30: 30, d90: 90, y1: 365 } as const;
type Expiry = keyof typeof EXPIRIES;

const expiresAtOf = (expiry: Expiry, now = Date.now()): string | null => {
  const days = EXPIRIES[expiry];
  return days === null ? null : new Date(now + days * 86_400_000).toISOString();
};

/** The dialog of a new key: its form, then (once made) its token, shown this once with a copy button. */
function CreateKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(true);
  const [expiry, setExpiry] = useState<Expiry>('d90');
  const [touched, setTouched] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const mutation = useMutation({
    mutationFn: () => createApiKey({ name, read_only: readOnly, expires_at: expiresAtOf(expiry) }),
    onSuccess: (key) => {
      setCreated(key);
      void client.invalidateQueries({ queryKey: apiKeysQuery().queryKey });
    },
  });
  const nameValid = ApiKeyCreateSchema.shape.name.safeParse(name).success;
  const close = () => {
    setName('');
    setReadOnly(true);
    setExpiry('d90');
    setTouched(false);
    setCreated(null);
    mutation.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameValid) mutation.mutate();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? t('API_KEYS_CREATED_TITLE', { name: created.name }) : t('API_KEYS_NEW')}
      closeButtonProps={{ 'aria-label': t('CLOSE') }}
    >
      {created ? (
        <Stack gap="sm">
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={t('API_KEYS_ONCE_TITLE')}>
            {t('API_KEYS_ONCE')}
          </Alert>
          <Textarea
            label={t('API_KEYS_TOKEN')}
            value={created.token}
            readOnly
            rows={2}
            onFocus={(e) => e.currentTarget.select()}
            styles={{ input: { fontFamily: 'monospace', wordBreak: 'break-all' } }}
            data-testid="api-key-token"
          />
          <Text size="xs" c="dimmed">
            {t('API_KEYS_HOW')} <Code>Authorization: ApiKey {created.prefix}…</Code>
          </Text>
          <CopySecretActions
            secret={created.token}
            copyLabel={t('API_KEYS_COPY')}
            copiedLabel={t('API_KEYS_COPIED')}
            doneLabel={t('API_KEYS_DONE')}
            onDone={close}
          />
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate aria-label={t('API_KEYS_NEW')}>
          <Stack gap="sm">
            <TextInput
              label={t('API_KEYS_NAME')}
              description={t('API_KEYS_NAME_HELP')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              onBlur={() => setTouched(true)}
              maxLength={100}
              required
              data-autofocus
              error={touched && !nameValid ? t('API_KEYS_NAME_ERROR') : undefined}
            />
            <Checkbox
              label={t('API_KEYS_READ_ONLY')}
              description={t('API_KEYS_READ_ONLY_HELP')}
              checked={readOnly}
              onChange={(e) => setReadOnly(e.currentTarget.checked)}
            />
            <NativeSelect
              label={t('API_KEYS_EXPIRY')}
              value={expiry}
              onChange={(e) => setExpiry(e.currentTarget.value as Expiry)}
              data={[
                { value: 'd30', label: t('API_KEYS_EXPIRY_30') },
                { value: 'd90', label: t('API_KEYS_EXPIRY_90') },
                { value: 'y1', label: t('API_KEYS_EXPIRY_YEAR') },
                { value: 'never', label: t('API_KEYS_EXPIRY_NEVER') },
              ]}
            />
            <DialogActions error={mutation.error} describe={errorText} onCancel={close}>
              <Button type="submit" leftSection={<IconKey size={16} />} loading={mutation.isPending}>
                {t('API_KEYS_CREATE')}
              </Button>
            </DialogActions>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** Asks before deleting a key: every system using it loses access at once. */
function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (key: ApiKey) => deleteApiKey(key),
    onSuccess: (key) => {
      void client.invalidateQueries({ queryKey: apiKeysQuery().queryKey });
      toast.success(t('API_KEYS_DELETED', { name: key.name }));
      close();
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Modal
      opened={apiKey !== null}
      onClose={close}
      title={t('API_KEYS_DELETE_TITLE', { name: apiKey?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('CLOSE') }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('API_KEYS_DELETE_TEXT')}</Text>
        <DialogActions error={mutation.error} describe={errorText} onCancel={close}>
          <Button color="red" loading={mutation.isPending} onClick={() => apiKey && mutation.mutate(apiKey)}>
            {t('API_KEYS_DELETE')}
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}

/** What a key's row shows, the same in the table and in the phone's list. */
function useKeyView() {
  const { t } = useTranslation();
  const { dateTime } = useDateWriters();
  const when = (iso: string | null, none: string) => (iso ? dateTime(new Date(iso)) : none);
  const now = Date.now();
  return {
    access: (key: ApiKey) => (
      <Badge
        variant="light"
        color={key.read_only ? 'blue' : 'orange'}
        styles={{ label: { overflow: 'visible' } }}
      >
        {key.read_only ? t('API_KEYS_READ_ONLY') : t('API_KEYS_FULL')}
      </Badge>
    ),
    prefix: (key: ApiKey) => <Code>{key.prefix}…</Code>,
    created: (key: ApiKey) => when(key.created_at, ''),
    lastUsed: (key: ApiKey) => when(key.last_used_at, t('API_KEYS_NEVER_USED')),
    expires: (key: ApiKey) =>
      key.expires_at !== null && Date.parse(key.expires_at) <= now ? (
        <Badge variant="light" color="red">
          {t('API_KEYS_EXPIRED')}
        </Badge>
      ) : (
        when(key.expires_at, t('API_KEYS_NO_EXPIRY'))
      ),
    remove: (key: ApiKey, onDelete: (key: ApiKey) => void) => (
      <Tooltip label={t('API_KEYS_DELETE_ROW', { name: key.name })} withinPortal>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('API_KEYS_DELETE_ROW', { name: key.name })}
          onClick={() => onDelete(key)}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    ),
  };
}

const NOWRAP = { whiteSpace: 'nowrap' } as const;

function KeysTable({ keys, onDelete }: { keys: ApiKey[]; onDelete: (key: ApiKey) => void }) {
  const { t } = useTranslation();
  const view = useKeyView();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="xs" aria-label={t('API_KEYS_TITLE')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('API_KEYS_NAME')}</Table.Th>
            <Table.Th>{t('API_KEYS_PREFIX')}</Table.Th>
            <Table.Th>{t('API_KEYS_ACCESS')}</Table.Th>
            <Table.Th>{t('API_KEYS_CREATED')}</Table.Th>
            <Table.Th>{t('API_KEYS_LAST_USED')}</Table.Th>
            <Table.Th>{t('API_KEYS_EXPIRES')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('API_KEYS_ACTIONS')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td fw={600}>{key.name}</Table.Td>
              <Table.Td style={NOWRAP}>{view.prefix(key)}</Table.Td>
              <Table.Td style={NOWRAP}>{view.access(key)}</Table.Td>
              <Table.Td>{view.created(key)}</Table.Td>
              <Table.Td>{view.lastUsed(key)}</Table.Td>
              <Table.Td>{view.expires(key)}</Table.Td>
              <Table.Td>{view.remove(key, onDelete)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone: one block per key, its facts labelled, instead of a table wider than the screen. */
function KeysList({ keys, onDelete }: { keys: ApiKey[]; onDelete: (key: ApiKey) => void }) {
  const { t } = useTranslation();
  const view = useKeyView();
  const fact = (label: string, value: ReactNode) => (
    <Group gap={6} wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap="xs" component="ul" aria-label={t('API_KEYS_TITLE')} p={0} m={0} style={{ listStyle: 'none' }}>
      {keys.map((key) => (
        <Paper key={key.id} component="li" withBorder radius="sm" p="sm">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={4} miw={0}>
              <Group gap="xs">
                <Text fw={600}>{key.name}</Text>
                {view.access(key)}
              </Group>
              {fact(t('API_KEYS_PREFIX'), view.prefix(key))}
              {fact(t('API_KEYS_CREATED'), view.created(key))}
              {fact(t('API_KEYS_LAST_USED'), view.lastUsed(key))}
              {fact(t('API_KEYS_EXPIRES'), view.expires(key))}
            </Stack>
            {view.remove(key, onDelete)}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** The profile's API keys: the user's keys, a new one (its token shown once), deleting one after asking. */
export function ApiKeysSection() {
  const { t } = useTranslation();
  const titleId = useId();
  const query = useQuery(apiKeysQuery());
  const theme = useMantineTheme();
  const narrow = useMediaQuery(`(max-width: calc(${theme.breakpoints.sm} - 1px))`);
  const Keys = narrow ? KeysList : KeysTable;
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} fz="h4" id={titleId}>
            {t('API_KEYS_TITLE')}
          </Title>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('API_KEYS_NEW')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('API_KEYS_INTRO')}
        </Text>
        {query.isPending ? (
          <Loader size="sm" aria-label={t('API_KEYS_LOADING')} />
        ) : query.isError ? (
          <Alert color="red" variant="light" role="alert">
            {t('API_KEYS_LOAD_FAILED')} {errorText(query.error)}
          </Alert>
        ) : query.data.length === 0 ? (
          <Text size="sm">{t('API_KEYS_EMPTY')}</Text>
        ) : (
          <Keys keys={query.data} onDelete={setDeleting} />
        )}
      </Stack>
      <CreateKeyDialog opened={creating} onClose={() => setCreating(false)} />
      <DeleteKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
