import {
  IMPORT_COLUMNS,
  IMPORT_OPTIONAL_COLUMNS,
  type ImportResult,
  ImportResultSchema,
  type ImportRowResult,
} from '@forecourt/contract/admin';
import { Alert, Badge, Box, Button, Checkbox, FileInput, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconEye, IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { isApiError } from '../../../../lib/api-client.ts';
import { importCsv, invalidateAfter } from './api/admin-mutations.ts';
import { AdminScreen, agentsOnly } from './components/admin-screen.tsx';
import { boxHeight } from './components/admin-table.tsx';

const ACTION_COLORS: Record<ImportRowResult['action'], string> = {
  create: 'teal',
  update: 'blue',
  unchanged: 'gray',
  error: 'red',
};
const ACTION_LABELS: Record<ImportRowResult['action'], string> = {
  create: 'ADMIN_ACTION_CREATE',
  update: 'ADMIN_ACTION_UPDATE',
  unchanged: 'ADMIN_ACTION_UNCHANGED',
  error: 'ADMIN_ACTION_ERROR',
};

/** A refused import (400) still answers row by row; anything else is a plain error. */
function answerOf(error: unknown): ImportResult | null {
  if (!isApiError(error)) return null;
  const parsed = ImportResultSchema.safeParse(error.body);
  return parsed.success ? parsed.data : null;
}

/** The table of a preview: each row's action and errors; optionally only the rows with errors. */
export function ImportPreview({ answer }: { answer: ImportResult }) {
  const { t } = useTranslation();
  const [onlyErrors, setOnlyErrors] = useState(answer.errors > 0);
  const rows = useMemo(
    () => (onlyErrors ? answer.rows.filter((r) => r.action === 'error') : answer.rows),
    [answer, onlyErrors],
  );
  const columns = useMemo<DataTableColumn<ImportRowResult>[]>(
    () => [
      { key: 'row', header: t('ADMIN_IMPORT_ROW'), width: '5rem', nowrap: true },
      {
        key: 'action',
        header: t('ADMIN_IMPORT_ACTION'),
        width: '8rem',
        render: (r) => (
          <Badge color={ACTION_COLORS[r.action]} variant="light">
            {t(ACTION_LABELS[r.action])}
          </Badge>
        ),
      },
      {
        key: 'errors',
        header: t('ADMIN_IMPORT_ERRORS'),
        width: '60%',
        render: (r) =>
          r.errors.length ? (
            <Text size="sm" c="red">
              {r.errors.join(' · ')}
            </Text>
          ) : null,
      },
    ],
    [t],
  );
  return (
    <Stack gap="xs" data-testid="import-preview">
      <Text size="sm" role="status" data-testid="import-summary">
        {t('ADMIN_IMPORT_SUMMARY', answer)}
      </Text>
      <Checkbox
        label={t('ADMIN_IMPORT_ONLY_ERRORS')}
        checked={onlyErrors}
        onChange={(e) => setOnlyErrors(e.currentTarget.checked)}
      />
      <Box h={boxHeight(rows.length, 360)}>
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.row}
          label={t('ADMIN_IMPORT_ROWS')}
          height={360}
          searchable={false}
          followHeaderSearch={false}
        />
      </Box>
    </Stack>
  );
}

/** `#/admin/import`: paste or upload a CSV, preview it (dry run), then import it in one go. */
export default agentsOnly('ADMIN_IMPORT', ImportPage);

function ImportPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [csv, setCsv] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [previewed, setPreviewed] = useState<{ csv: string; answer: ImportResult } | null>(null);
  const [done, setDone] = useState<ImportResult | null>(null);
  const preview = useMutation({
    mutationFn: (text: string) => importCsv(text, true),
    onMutate: () => setDone(null),
    onSuccess: (answer, text) => setPreviewed({ csv: text, answer }),
    onError: (error, text) => {
      const answer = answerOf(error);
      setPreviewed(answer ? { csv: text, answer } : null);
    },
  });
  const run = useMutation({
    mutationFn: (text: string) => importCsv(text, false),
    onSuccess: async (answer) => {
      setDone(answer);
      setPreviewed(null);
      await invalidateAfter(client, 'import');
    },
    onError: (error, text) => {
      const answer = answerOf(error);
      if (answer) setPreviewed({ csv: text, answer });
    },
  });
  const stale = previewed !== null && previewed.csv !== csv;
  const canImport = previewed !== null && !stale && previewed.answer.errors === 0;
  const failure = [preview, run].find((m) => m.isError && !answerOf(m.error));

  return (
    <AdminScreen title={t('ADMIN_IMPORT')} searchable={false}>
      <Text size="sm">
        {t('ADMIN_IMPORT_INTRO', { columns: IMPORT_COLUMNS.join(',') })}{' '}
        {t('ADMIN_IMPORT_OPTIONAL', { columns: IMPORT_OPTIONAL_COLUMNS.join(',') })}
      </Text>
      <FileInput
        label={t('ADMIN_IMPORT_FILE')}
        placeholder={t('ADMIN_IMPORT_FILE_PLACEHOLDER')}
        accept=".csv,text/csv"
        clearable
        leftSection={<IconFileTypeCsv size={16} aria-hidden />}
        value={file}
        onChange={async (f) => {
          setFile(f);
          if (f) setCsv(await f.text());
        }}
        w={{ base: '100%', sm: 360 }}
      />
      <Textarea
        label={t('ADMIN_IMPORT_CSV')}
        placeholder={`${IMPORT_COLUMNS.join(',')}\n…`}
        rows={8}
        resize="vertical"
        value={csv}
        onChange={(e) => setCsv(e.currentTarget.value)}
        styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
        spellCheck={false}
      />
      <Group gap="sm">
        <Button
          leftSection={<IconEye size={16} />}
          variant="light"
          loading={preview.isPending}
          disabled={!csv.trim()}
          onClick={() => preview.mutate(csv)}
        >
          {t('ADMIN_IMPORT_PREVIEW')}
        </Button>
        <Button
          leftSection={<IconUpload size={16} />}
          loading={run.isPending}
          disabled={!canImport}
          onClick={() => run.mutate(csv)}
        >
          {t('ADMIN_IMPORT_RUN')}
        </Button>
      </Group>
      {!csv.trim() && !previewed && !done && (
        <Text size="sm" c="dimmed">
          {t('ADMIN_IMPORT_EMPTY')}
        </Text>
      )}
      {failure && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} role="alert">
          {isApiError(failure.error) && failure.error.errors.length
            ? failure.error.errors.join(' ')
            : failure.error?.message}
        </Alert>
      )}
      {done && (
        <Alert color="teal" variant="light" icon={<IconCheck />} role="status" data-testid="import-done">
          {t('ADMIN_IMPORT_DONE', done)}
        </Alert>
      )}
      {stale && (
        <Alert color="yellow" variant="light" role="status">
          {t('ADMIN_IMPORT_STALE')}
        </Alert>
      )}
      {previewed && previewed.answer.errors > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} role="alert">
          {t('ADMIN_IMPORT_HAS_ERRORS')}
        </Alert>
      )}
      {previewed && (
        <ImportPreview key={previewed.csv.length + previewed.answer.errors} answer={previewed.answer} />
      )}
    </AdminScreen>
  );
}
