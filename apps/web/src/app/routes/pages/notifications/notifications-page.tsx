import { SEVERITIES, type Severity } from '@forecourt/contract/events';
import {
  CONTACT_POINT_KINDS,
  type ContactPoint,
  type ContactPointKind,
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryStatus,
  type NotificationPolicy,
} from '@forecourt/contract/notifications';
import type { TargetInput } from '@forecourt/contract/targets';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackTitle } from '../../../../components/back-link.tsx';
import { ErrorLine, RowButton } from '../../../../components/page-parts.tsx';
import { PlainTable } from '../../../../components/plain-table.tsx';
import { paths } from '../../../../config/paths.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { defaultTarget, TargetPicker } from '../targets/target-picker.tsx';
import {
  contactPointsQuery,
  createContactPoint,
  createPolicy,
  deleteContactPoint,
  deletePolicy,
  deliveriesQuery,
  notificationKeys,
  policiesQuery,
  testContactPoint,
} from './api/notifications.ts';

const STATUS_COLOR: Record<DeliveryStatus, string> = {
  pending: 'gray',
  retrying: 'orange',
  delivered: 'teal',
  failed: 'red',
};

function DeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <RowButton danger onClick={onClick} aria-label={t('NOTIFY_DELETE_NAMED', { name })}>
      {t('NOTIFY_DELETE')}
    </RowButton>
  );
}

function DeliveryOutcome({ d }: { d: Delivery }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color={STATUS_COLOR[d.status]} variant="light">
        {t(`NOTIFY_STATUS_${d.status.toUpperCase()}`)}
      </Badge>
      {d.last_status_code !== null && <Code>{d.last_status_code}</Code>}
      {d.last_error && (
        <Text size="xs" c="dimmed" lineClamp={1}>
          {d.last_error}
        </Text>
      )}
    </Group>
  );
}

/** One part of the page: a bordered card with its heading (and what goes beside it). */
function Section({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  const heading = (
    <Title order={2} fz="h4">
      {title}
    </Title>
  );
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        {aside ? (
          <Group justify="space-between" align="flex-end">
            {heading}
            {aside}
          </Group>
        ) : (
          heading
        )}
        {children}
      </Stack>
    </Card>
  );
}

function ContactPoints() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const points = useQuery(contactPointsQuery());
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ContactPointKind>('webhook');
  const [where, setWhere] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState<Record<number, Delivery>>({});
  const refresh = () => client.invalidateQueries({ queryKey: notificationKeys.all });
  const create = useMutation({
    mutationFn: () =>
      createContactPoint(
        kind === 'email'
          ? { name, kind, addresses: where.split(/[,\s]+/).filter(Boolean) }
          : { name, kind, url: where.trim() },
      ),
    onSuccess: (created) => {
      setSecret(created.secret);
      setName('');
      setWhere('');
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: (id: number) => testContactPoint(id),
    onSuccess: (d) => {
      setTested((all) => ({ ...all, [d.contact_point_id]: d }));
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteContactPoint(id), onSuccess: refresh });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    create.mutate();
  };
  return (
    <Section title={t('NOTIFY_CONTACT_POINTS')}>
      <ErrorLine error={points.error} />
      {points.data?.length === 0 && <Text c="dimmed">{t('NOTIFY_NO_CONTACT_POINTS')}</Text>}
      {!!points.data?.length && (
        <PlainTable<ContactPoint>
          aria-label={t('NOTIFY_CONTACT_POINTS')}
          minWidth={560}
          rows={points.data}
          rowKey={(p) => p.id}
          columns={[
            { label: t('NOTIFY_NAME'), cell: (p) => p.name },
            { label: t('NOTIFY_KIND'), cell: (p) => t(`NOTIFY_KIND_${p.kind.toUpperCase()}`) },
            {
              label: t('NOTIFY_WHERE'),
              cell: (p) => (
                <Text size="sm" lineClamp={1} style={{ wordBreak: 'break-all' }}>
                  {p.kind === 'email' ? p.addresses.join(', ') : p.url}
                </Text>
              ),
            },
            {
              label: t('NOTIFY_LAST_TEST'),
              cell: (p) => tested[p.id] && <DeliveryOutcome d={tested[p.id]!} />,
            },
            {
              label: null,
              cell: (p) => (
                <Group gap="xs" wrap="nowrap" justify="flex-end">
                  <RowButton
                    loading={test.isPending && test.variables === p.id}
                    onClick={() => test.mutate(p.id)}
                    aria-label={t('NOTIFY_TEST_NAMED', { name: p.name })}
                  >
                    {t('NOTIFY_TEST')}
                  </RowButton>
                  <DeleteButton name={p.name} onClick={() => remove.mutate(p.id)} />
                </Group>
              ),
            },
          ]}
        />
      )}
      <ErrorLine size="sm" error={test.error} />
      <form onSubmit={submit} aria-label={t('NOTIFY_ADD_CONTACT_POINT')}>
        <Stack gap="xs">
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              label={t('NOTIFY_NAME')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
            />
            <NativeSelect
              label={t('NOTIFY_KIND')}
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value as ContactPointKind)}
              data={CONTACT_POINT_KINDS.map((k) => ({
                value: k,
                label: t(`NOTIFY_KIND_${k.toUpperCase()}`),
              }))}
            />
          </Group>
          <TextInput
            label={kind === 'email' ? t('NOTIFY_ADDRESSES') : t('NOTIFY_URL')}
            value={where}
            onChange={(e) => setWhere(e.currentTarget.value)}
            placeholder={kind === 'email' ? 'ops@example.com' : 'https://'}
            required
          />
          <ErrorLine size="sm" error={create.error} />
          {secret && (
            <Text size="sm" role="status">
              {t('NOTIFY_SECRET_ONCE')} <Code>{secret}</Code>
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              {t('NOTIFY_ADD_CONTACT_POINT')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function Policies() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { user } = useSession();
  const points = useQuery(contactPointsQuery());
  const policies = useQuery(policiesQuery());
  const [name, setName] = useState('');
  const [target, setTarget] = useState<TargetInput>(() => defaultTarget(user));
  const [minSeverity, setMinSeverity] = useState<Severity>('major');
  const [to, setTo] = useState<string[]>([]);
  const [after, setAfter] = useState<number | string>('');
  const [escalateTo, setEscalateTo] = useState<string[]>([]);
  const refresh = () => client.invalidateQueries({ queryKey: notificationKeys.all });
  const create = useMutation({
    mutationFn: () =>
      createPolicy({
        name,
        target,
        min_severity: minSeverity,
        contact_point_ids: to.map(Number),
        escalate_after_s: after === '' ? null : Number(after),
        escalate_to_ids: escalateTo.map(Number),
      }),
    onSuccess: () => {
      setName('');
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => deletePolicy(id), onSuccess: refresh });
  const nameOf = (id: number) => points.data?.find((p) => p.id === id)?.name ?? `#${id}`;
  const choices = (points.data ?? []).map((p) => <Checkbox key={p.id} value={String(p.id)} label={p.name} />);
  return (
    <Section title={t('NOTIFY_POLICIES')}>
      {policies.data?.length === 0 && <Text c="dimmed">{t('NOTIFY_NO_POLICIES')}</Text>}
      {!!policies.data?.length && (
        <PlainTable<NotificationPolicy>
          aria-label={t('NOTIFY_POLICIES')}
          minWidth={560}
          rows={policies.data}
          rowKey={(p) => p.id}
          columns={[
            { label: t('NOTIFY_NAME'), cell: (p) => p.name },
            {
              label: t('NOTIFY_TARGET'),
              cell: (p) => (
                <>
                  {t(`NOTIFY_SCOPE_${p.target.scope.kind.toUpperCase()}`)} {p.target.scope.id}
                  {p.target.tags.length > 0 && ` · ${p.target.tags.join(', ')}`}
                </>
              ),
            },
            { label: t('NOTIFY_MIN_SEVERITY'), cell: (p) => t(`SEVERITY_${p.min_severity.toUpperCase()}`) },
            { label: t('NOTIFY_SEND_TO'), cell: (p) => p.contact_point_ids.map(nameOf).join(', ') },
            {
              label: t('NOTIFY_ESCALATION'),
              cell: (p) =>
                p.escalate_after_s === null
                  ? '—'
                  : t('NOTIFY_ESCALATES', {
                      minutes: Math.round(p.escalate_after_s / 60),
                      to: p.escalate_to_ids.map(nameOf).join(', '),
                    }),
            },
            { label: null, cell: (p) => <DeleteButton name={p.name} onClick={() => remove.mutate(p.id)} /> },
          ]}
        />
      )}
      <form
        aria-label={t('NOTIFY_ADD_POLICY')}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Stack gap="xs">
          <TextInput
            label={t('NOTIFY_NAME')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <TargetPicker value={target} onChange={setTarget} />
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
            <NativeSelect
              label={t('NOTIFY_MIN_SEVERITY')}
              value={minSeverity}
              onChange={(e) => setMinSeverity(e.currentTarget.value as Severity)}
              data={SEVERITIES.map((s) => ({ value: s, label: t(`SEVERITY_${s.toUpperCase()}`) }))}
            />
          </SimpleGrid>
          <Checkbox.Group label={t('NOTIFY_SEND_TO')} value={to} onChange={setTo}>
            <Group gap="md" mt={4}>
              {choices}
            </Group>
          </Checkbox.Group>
          <NumberInput
            label={t('NOTIFY_ESCALATE_AFTER')}
            description={t('NOTIFY_ESCALATE_AFTER_HELP')}
            value={after}
            onChange={setAfter}
            min={0}
            maw={260}
          />
          <Checkbox.Group label={t('NOTIFY_ESCALATE_TO')} value={escalateTo} onChange={setEscalateTo}>
            <Group gap="md" mt={4}>
              {(points.data ?? []).map((p) => (
                <Checkbox key={p.id} value={String(p.id)} label={p.name} />
              ))}
            </Group>
          </Checkbox.Group>
          <ErrorLine size="sm" error={create.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              {t('NOTIFY_ADD_POLICY')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function DeliveryLog() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const log = useQuery(deliveriesQuery(status));
  const points = useQuery(contactPointsQuery());
  const nameOf = (id: number) => points.data?.find((p) => p.id === id)?.name ?? `#${id}`;
  return (
    <Section
      title={t('NOTIFY_DELIVERIES')}
      aside={
        <NativeSelect
          label={t('NOTIFY_STATUS')}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value as DeliveryStatus | '')}
          data={[
            { value: '', label: t('NOTIFY_STATUS_ALL') },
            ...DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`NOTIFY_STATUS_${s.toUpperCase()}`) })),
          ]}
        />
      }
    >
      <ErrorLine error={log.error} />
      {log.data?.length === 0 && <Text c="dimmed">{t('NOTIFY_NO_DELIVERIES')}</Text>}
      {!!log.data?.length && (
        <PlainTable<Delivery>
          aria-label={t('NOTIFY_DELIVERIES')}
          minWidth={560}
          rows={log.data}
          rowKey={(d) => d.id}
          columns={[
            { label: t('NOTIFY_WHEN'), cell: (d) => new Date(d.created_at).toLocaleString() },
            { label: t('NOTIFY_EVENT'), cell: (d) => <Code>{d.event}</Code> },
            { label: t('NOTIFY_CONTACT_POINT'), cell: (d) => nameOf(d.contact_point_id) },
            { label: t('NOTIFY_ALERT'), cell: (d) => d.alert_id ?? '—' },
            { label: t('NOTIFY_ATTEMPTS'), cell: (d) => d.attempts },
            { label: t('NOTIFY_OUTCOME'), cell: (d) => <DeliveryOutcome d={d} /> },
          ]}
        />
      )}
    </Section>
  );
}

/** Notifications (agents and company users): contact points with a test, policies, the delivery log. */
export default function NotificationsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('NOTIFY_TITLE'));
  return (
    <Stack gap="md" maw={1100}>
      <BackTitle to={paths.agentDashboard} title={t('NOTIFY_TITLE')}>
        <Text c="dimmed" size="sm">
          {t('NOTIFY_INTRO')}
        </Text>
      </BackTitle>
      <ContactPoints />
      <Policies />
      <DeliveryLog />
    </Stack>
  );
}
