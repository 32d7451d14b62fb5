import { Box, Button, Group, Stack, Text } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../../../components/data-table/data-table.tsx';
import { LoadFailed, LoadingState } from '../../../../../components/page-parts.tsx';
import type { Page } from '../api/admin-queries.ts';

export interface AdminTableProps<T> {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>>;
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => string | number;
  /** Accessible name of the table, already translated. */
  label: string;
  /** The search text, for the empty state. */
  q?: string;
  /** Height of the table body in px. @default 480 */
  height?: number;
}

/**
 * The table's box: as tall as its rows (header and ~45 px a row) up to `max`, where the rows start to
 * scroll inside it. The data table fills the box it is given.
 */
export const boxHeight = (rows: number, max: number) => Math.min(max, 48 + rows * 45);

/** A server-paged list: loading, error (with retry), empty and no-match states, then the rows and "Load more". */
export function AdminTable<T>({ query, columns, rowKey, label, q = '', height = 480 }: AdminTableProps<T>) {
  const { t } = useTranslation();
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.rows) ?? [], [query.data]);

  if (query.isPending) {
    return <LoadingState mih={160} />;
  }
  if (query.isError && rows.length === 0) {
    return (
      <LoadFailed
        title={t('ADMIN_LOAD_ERROR')}
        message={query.error.message}
        onRetry={() => query.refetch()}
        retryIcon
      />
    );
  }
  if (rows.length === 0) {
    return (
      <Text c="dimmed" role="status" py="lg">
        {q ? t('ADMIN_NO_MATCH', { q }) : t('ADMIN_EMPTY')}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Box h={boxHeight(rows.length, height)}>
        <DataTable
          {...{ rows, columns, rowKey, label, height }}
          searchable={false}
          followHeaderSearch={false}
        />
      </Box>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" role="status">
          {t('ADMIN_ROWS_SHOWN', { count: rows.length })}
        </Text>
        {query.hasNextPage && (
          <Button
            variant="light"
            size="xs"
            loading={query.isFetchingNextPage}
            onClick={() => query.fetchNextPage()}
          >
            {t('ADMIN_LOAD_MORE')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
