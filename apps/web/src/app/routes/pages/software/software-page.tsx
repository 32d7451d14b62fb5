import type { Rollout, SoftwarePackage } from '@forecourt/contract/software';
import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  NumberInput,
  Paper,
  Progress,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../../components/link.tsx';
import { LoadingState, RowButton } from '../../../../components/page-parts.tsx';
import { PlainTable } from '../../../../components/plain-table.tsx';
import { paths } from '../../../../config/paths.ts';
import { errorText, isApiError } from '../../../../lib/api-client.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { toast } from '../../../../lib/toast.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { createRollout, deletePackage, softwareQueries, uploadPackage } from './api/software.ts';
import { AgentsOnly, StateBadge } from './rollout-parts.tsx';

const bytes = (n: number) =>
  n >= 1024 * 1024
    ? `${(n / 1024 / 1024).toFixed(1)} MiB`
    : n >= 1024
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${n} B`;

function UploadForm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [kind, setKind] = useState<string>('software');
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const upload = useMutation({
    mutationFn: () => uploadPackage({ name, version, kind }, file!, setProgress),
    onSuccess: (pkg) => {
      toast.success(t('SOFTWARE_UPLOADED', { name: pkg.name, version: pkg.version }));
      setFile(null);
      setName('');
      setVersion('');
      setErrors([]);
      void client.invalidateQueries({ queryKey: softwareQueries.all });
    },
    onError: (err) => setErrors([errorText(err)]),
    onSettled: () => setProgress(null),
  });
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label={t('SOFTWARE_UPLOAD')}
      onSubmit={(e) => {
        e.preventDefault();
        upload.mutate();
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('SOFTWARE_UPLOAD')}
        </Title>
        <Group grow wrap="wrap" align="flex-end">
          <FileInput label={t('SOFTWARE_FILE')} value={file} onChange={setFile} clearable miw={180} />
          <TextInput
            label={t('SOFTWARE_NAME')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            miw={160}
          />
          <TextInput
            label={t('SOFTWARE_VERSION')}
            value={version}
            onChange={(e) => setVersion(e.currentTarget.value)}
            miw={120}
          />
          <Select
            label={t('SOFTWARE_KIND')}
            data={[
              { value: 'software', label: t('SOFTWARE_KIND_SOFTWARE') },
              { value: 'config', label: t('SOFTWARE_KIND_CONFIG') },
            ]}
            value={kind}
            onChange={(v) => setKind(v ?? 'software')}
            allowDeselect={false}
            miw={120}
          />
        </Group>
        {progress !== null && (
          <Progress value={progress * 100} aria-label={t('SOFTWARE_UPLOAD_PROGRESS')} animated />
        )}
        {errors.length > 0 && (
          <Alert color="red" variant="light" role="alert">
            {errors.join(' ')}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={upload.isPending} disabled={!file || !name || !version}>
            {t('SOFTWARE_UPLOAD_BUTTON')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Packages({ packages, loading }: { packages: SoftwarePackage[]; loading: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: deletePackage,
    onSuccess: () => void client.invalidateQueries({ queryKey: softwareQueries.all }),
    onError: (err) => toast.error(errorText(err)),
  });
  if (loading) return <LoadingState mih={80} />;
  if (!packages.length) return <Text c="dimmed">{t('SOFTWARE_NO_PACKAGES')}</Text>;
  return (
    <PlainTable<SoftwarePackage>
      striped
      aria-label={t('SOFTWARE_PACKAGES')}
      minWidth={560}
      rows={packages}
      rowKey={(p) => p.id}
      columns={[
        { label: t('SOFTWARE_NAME'), cell: (p) => p.name },
        { label: t('SOFTWARE_VERSION'), cell: (p) => p.version },
        {
          label: t('SOFTWARE_KIND'),
          cell: (p) => (p.kind === 'config' ? t('SOFTWARE_KIND_CONFIG') : t('SOFTWARE_KIND_SOFTWARE')),
        },
        { label: t('SOFTWARE_SIZE'), cell: (p) => bytes(p.size) },
        {
          label: 'SHA-256',
          cell: (p) => (
            <Text ff="monospace" fz="xs" title={p.sha256}>
              {p.sha256.slice(0, 12)}…
            </Text>
          ),
        },
        {
          label: t('SOFTWARE_ACTIONS'),
          cell: (p) => (
            <RowButton
              danger
              aria-label={t('SOFTWARE_DELETE_PACKAGE', { name: p.name, version: p.version })}
              onClick={() => {
                if (window.confirm(t('SOFTWARE_DELETE_CONFIRM', { name: p.name, version: p.version })))
                  remove.mutate(p.id);
              }}
            >
              {t('SOFTWARE_DELETE')}
            </RowButton>
          ),
        },
      ]}
    />
  );
}

/** Waves as typed: `1, 10, 100`. */
const parseWaves = (text: string) =>
  text
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number);

function NewRollout({ packages }: { packages: SoftwarePackage[] }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { user } = useSession();
  const agentId = user?.agent ?? 0;
  const [packageId, setPackageId] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [waves, setWaves] = useState('1, 10, 100');
  const [wait, setWait] = useState<number | string>(900);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [maxFailure, setMaxFailure] = useState<number | string>(5);
  const [errors, setErrors] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () =>
      createRollout({
        package_id: Number(packageId),
        target: { scope: { kind: 'agent', id: agentId }, tags },
        waves: parseWaves(waves),
        wave_wait_s: Number(wait),
        window: start && end ? { start, end } : null,
        max_failure_pct: Number(maxFailure),
      }),
    onSuccess: (r) => {
      setErrors([]);
      toast.success(t('SOFTWARE_ROLLOUT_STARTED', { id: r.id }));
      void client.invalidateQueries({ queryKey: softwareQueries.all });
    },
    onError: (err) => setErrors(isApiError(err) && err.errors.length ? err.errors : [errorText(err)]),
  });
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label={t('SOFTWARE_NEW_ROLLOUT')}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('SOFTWARE_NEW_ROLLOUT')}
        </Title>
        <Group grow wrap="wrap" align="flex-end">
          <Select
            label={t('SOFTWARE_PACKAGE')}
            data={packages.map((p) => ({ value: String(p.id), label: `${p.name} ${p.version}` }))}
            value={packageId}
            onChange={setPackageId}
            miw={200}
          />
          <TagsInput label={t('SOFTWARE_TARGET_TAGS')} value={tags} onChange={setTags} miw={200} />
          <TextInput
            label={t('SOFTWARE_WAVES')}
            value={waves}
            onChange={(e) => setWaves(e.currentTarget.value)}
            miw={120}
          />
        </Group>
        <Group grow wrap="wrap" align="flex-end">
          <NumberInput label={t('SOFTWARE_WAVE_WAIT')} value={wait} onChange={setWait} min={0} miw={120} />
          {(
            [
              ['SOFTWARE_WINDOW_START', '22:00', start, setStart],
              ['SOFTWARE_WINDOW_END', '05:00', end, setEnd],
            ] as const
          ).map(([label, example, value, set]) => (
            <TextInput
              key={label}
              label={t(label)}
              placeholder={example}
              value={value}
              onChange={(e) => set(e.currentTarget.value)}
              miw={100}
            />
          ))}
          <NumberInput
            label={t('SOFTWARE_MAX_FAILURE')}
            value={maxFailure}
            onChange={setMaxFailure}
            min={0}
            max={100}
            miw={120}
          />
        </Group>
        {errors.length > 0 && (
          <Alert color="red" variant="light" role="alert">
            <Stack gap={2}>
              {errors.map((e) => (
                <Text key={e} size="sm">
                  {e}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={create.isPending} disabled={!packageId}>
            {t('SOFTWARE_START_ROLLOUT')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function RolloutProgress({ rollout: r }: { rollout: Rollout }) {
  const { t } = useTranslation();
  const total = Object.values(r.counts).reduce((a, b) => a + b, 0);
  const finished = r.counts.done + r.counts.failed + r.counts.skipped;
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress value={total ? (finished * 100) / total : 0} w={100} aria-hidden />
      <Text size="xs">
        {finished}/{total}
      </Text>
      {r.counts.failed > 0 && (
        <Badge color="red" size="xs">
          {t('SOFTWARE_FAILED_N', { count: r.counts.failed })}
        </Badge>
      )}
    </Group>
  );
}

function Rollouts({ rollouts, loading }: { rollouts: Rollout[]; loading: boolean }) {
  const { t } = useTranslation();
  if (loading) return <LoadingState mih={80} />;
  if (!rollouts.length) return <Text c="dimmed">{t('SOFTWARE_NO_ROLLOUTS')}</Text>;
  return (
    <PlainTable<Rollout>
      striped
      aria-label={t('SOFTWARE_ROLLOUTS')}
      minWidth={560}
      rows={rollouts}
      rowKey={(r) => r.id}
      columns={[
        {
          label: '#',
          cell: (r) => (
            <Link to={paths.rollout(r.id)} aria-label={t('SOFTWARE_OPEN_ROLLOUT', { id: r.id })}>
              {r.id}
            </Link>
          ),
        },
        {
          label: t('SOFTWARE_PACKAGE'),
          cell: (r) => (r.package ? `${r.package.name} ${r.package.version}` : `#${r.package_id}`),
        },
        { label: t('SOFTWARE_STATE'), cell: (r) => <StateBadge state={r.state} /> },
        { label: t('SOFTWARE_WAVE'), cell: (r) => `${r.wave} / ${r.waves.length}` },
        { label: t('SOFTWARE_PROGRESS'), td: { miw: 140 }, cell: (r) => <RolloutProgress rollout={r} /> },
      ]}
    />
  );
}

/** A part of the page: its heading, its form, then its list (or why it failed to load). */
function Part({
  title,
  form,
  error,
  children,
}: {
  title: string;
  form: ReactNode;
  error: Error | null;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {title}
      </Title>
      {form}
      {error ? (
        <Alert color="red" role="alert">
          {errorText(error)}
        </Alert>
      ) : (
        children
      )}
    </Stack>
  );
}

function SoftwarePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('SOFTWARE'));
  const packagesQuery = useInfiniteQuery(softwareQueries.packages());
  const rolloutsQuery = useInfiniteQuery(softwareQueries.rollouts());
  const packages = useMemo(
    () => packagesQuery.data?.pages.flatMap((p) => p.rows) ?? [],
    [packagesQuery.data],
  );
  const rollouts = useMemo(
    () => rolloutsQuery.data?.pages.flatMap((p) => p.rows) ?? [],
    [rolloutsQuery.data],
  );
  return (
    <Stack p="md" gap="lg">
      <Title order={1} size="h3">
        {t('SOFTWARE')}
      </Title>
      <Part title={t('SOFTWARE_PACKAGES')} form={<UploadForm />} error={packagesQuery.error}>
        <Packages packages={packages} loading={packagesQuery.isPending} />
      </Part>
      <Part
        title={t('SOFTWARE_ROLLOUTS')}
        form={<NewRollout packages={packages} />}
        error={rolloutsQuery.error}
      >
        <Rollouts rollouts={rollouts} loading={rolloutsQuery.isPending} />
      </Part>
    </Stack>
  );
}

/** `#/software`: packages with upload, and rollouts (agents only). */
export default function SoftwareRoute() {
  return (
    <AgentsOnly>
      <SoftwarePage />
    </AgentsOnly>
  );
}
