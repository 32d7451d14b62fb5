import { type AdminTerminal, TerminalCreateSchema } from '@forecourt/contract/admin';
import { BulkRebootAcceptedSchema } from '@forecourt/contract/bulk-reboot';
import { isTag, MAX_TAGS, uniqueTags } from '@forecourt/contract/targets';
import { Button, TagsInput, type TagsInputProps, TextInput } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { TagBadges } from '../../../../components/tags/tag-badges.tsx';
import { api, errorText } from '../../../../lib/api-client.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { toast } from '../../../../lib/toast.ts';
import { decommissionAndRefresh } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import {
  AdminScreen,
  agentsOnly,
  useEditDialog,
  useSearchText,
  useUrlParam,
} from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { CoordinateFields, useEntityForm } from './components/entity-form.tsx';
import { useSiteNames } from './components/entity-options.ts';
import { FormModal } from './components/form-modal.tsx';
import { ParentFilter, ParentPicker, useParentFilter } from './components/parent-select.tsx';
import { RowActions } from './components/row-actions.tsx';
import { TokenDialog } from './components/token-dialog.tsx';

type TerminalForm = z.input<typeof TerminalCreateSchema>;

function initialValues(terminal: AdminTerminal | null | undefined, siteId?: number): Partial<TerminalForm> {
  return {
    site_id: terminal?.site_id ?? siteId,
    terminal_id: terminal?.terminal_id ?? '',
    card_acceptor_name: terminal?.card_acceptor_name ?? '',
    lat: terminal?.lat ?? undefined,
    lng: terminal?.lng ?? undefined,
    tags: terminal?.tags ?? [],
  } as Partial<TerminalForm>;
}

/**
 * A tags field (docs/targets.md): what is typed is lowercased and kept once; a label that cannot be a tag is not
 * added and `onRejected` names it. Enter, comma, space or semicolon ends a tag.
 */
function TagsField({
  value,
  onChange,
  onRejected,
  ...props
}: Omit<TagsInputProps, 'value' | 'onChange'> & {
  value: readonly string[];
  onChange: (tags: string[]) => void;
  onRejected: (tag: string | null) => void;
}) {
  return (
    <TagsInput
      {...props}
      value={[...value]}
      splitChars={[',', ' ', ';']}
      maxTags={MAX_TAGS}
      clearable
      onChange={(typed) => {
        const tags = uniqueTags(typed);
        const bad = tags.find((tag) => !isTag(tag));
        onRejected(bad ?? null);
        onChange(tags.filter(isTag));
      }}
    />
  );
}

/** The tag filter of the list, kept in the URL as `?tag=a,b` and sent as repeated `tag` (all must match). */
function useTagFilter(): [string[], (tags: string[]) => void] {
  const [value, setValue] = useUrlParam('tag');
  const tags = useMemo(() => (value ? uniqueTags(value.split(',')).filter(isTag) : []), [value]);
  return [tags, (next) => setValue(next.join(','))];
}

export interface TerminalFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The terminal being edited; a new one is created without it. */
  terminal?: AdminTerminal | null;
  /** Site chosen in advance for a new terminal. */
  siteId?: number;
}

/** Create or edit a terminal (the contract's TerminalCreateSchema). */
export function TerminalFormModal({ opened, onClose, terminal, siteId }: TerminalFormModalProps) {
  const { t } = useTranslation();
  const [invalid, setInvalid] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setInvalid(null);
  }, [opened]);
  const { form, save, message } = useEntityForm({
    entity: 'terminals',
    schema: TerminalCreateSchema,
    fields: ['site_id', 'terminal_id', 'card_acceptor_name', 'lat', 'lng', 'tags'],
    values: initialValues,
    opened,
    row: terminal,
    preset: siteId,
    name: (v) => v.terminal_id,
    onSaved: onClose,
  });
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={terminal ? t('ADMIN_EDIT_TERMINAL', { name: terminal.terminal_id }) : t('ADMIN_CREATE_TERMINAL')}
      {...save}
    >
      <ParentPicker
        kind="site"
        control={form.control}
        name="site_id"
        chosenId={terminal?.site_id}
        error={message('site_id')}
      />
      <TextInput
        label={t('ADMIN_TERMINAL_ID')}
        required
        {...form.register('terminal_id')}
        error={message('terminal_id')}
      />
      <TextInput
        label={t('ADMIN_CARD_ACCEPTOR')}
        {...form.register('card_acceptor_name')}
        error={message('card_acceptor_name')}
      />
      <CoordinateFields register={form.register} message={message} />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => (
          <TagsField
            label={t('ADMIN_TAGS')}
            description={t('ADMIN_TAGS_HINT')}
            value={(field.value as string[] | undefined) ?? []}
            onChange={field.onChange}
            onBlur={field.onBlur}
            onRejected={setInvalid}
            error={invalid ? t('ADMIN_TAG_INVALID', { tag: invalid }) : message('tags')}
          />
        )}
      />
    </FormModal>
  );
}

/** `#/admin/terminals`: the agent's terminals, optionally of one site (`?site_id=`). */
/**
 * Reboots every terminal carrying the filter's tags (in the filter's site, else the agent's whole fleet) with one
 * `POST /api/terminals/reboot/` (docs/targets.md), after a confirmation.
 */
function RebootTagged({ tags, siteId }: { tags: string[]; siteId: number | undefined }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const reboot = useMutation({
    mutationFn: () =>
      api.post(
        '/api/terminals/reboot/',
        {
          target: {
            scope: siteId ? { kind: 'site', id: siteId } : { kind: 'agent', id: user?.agent ?? 0 },
            tags,
          },
          reboot_type: 'software',
        },
        { schema: BulkRebootAcceptedSchema, idempotent: true },
      ),
    onSuccess: (r) => toast.success(t('TERMINALS_REBOOT_DONE', { count: r.count, skipped: r.skipped })),
    onError: (err) => toast.error(errorText(err)),
  });
  if (!tags.length) return null;
  return (
    <Button
      variant="light"
      color="orange"
      leftSection={<IconRefresh size={16} aria-hidden />}
      aria-label={t('TERMINALS_REBOOT_TAG')}
      loading={reboot.isPending}
      onClick={() => {
        if (window.confirm(t('TERMINALS_REBOOT_CONFIRM', { tags: tags.join(', ') }))) reboot.mutate();
      }}
    >
      {t('TERMINALS_REBOOT')}
    </Button>
  );
}

export default agentsOnly('ADMIN_TERMINALS', TerminalsPage);

function TerminalsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [q] = useSearchText();
  const siteId = useParentFilter('site');
  const [tags, setTags] = useTagFilter();
  const [badFilter, setBadFilter] = useState<string | null>(null);
  const query = useInfiniteQuery(adminQueries.terminals({ q, site_id: siteId, tag: tags }));
  /** Tags of the terminals listed so far: what the filter suggests. */
  const known = useMemo(
    () => uniqueTags(query.data?.pages.flatMap((p) => p.rows.flatMap((x) => x.tags)) ?? []).sort(),
    [query.data],
  );
  const siteName = useSiteNames();
  const dialog = useEditDialog<AdminTerminal>();
  const [tokenFor, setTokenFor] = useState<AdminTerminal | null>(null);
  const columns = useMemo<DataTableColumn<AdminTerminal>[]>(
    () => [
      { key: 'id', header: t('ADMIN_ID'), width: '4.5rem', nowrap: true, visibleFrom: 'sm' },
      { key: 'terminal_id', header: t('ADMIN_TERMINAL_ID'), nowrap: true },
      { key: 'site_id', header: t('ADMIN_SITE'), visibleFrom: 'sm', render: (x) => siteName(x.site_id) },
      { key: 'card_acceptor_name', header: t('ADMIN_CARD_ACCEPTOR'), visibleFrom: 'md' },
      { key: 'tags', header: t('ADMIN_TAGS'), render: (x) => <TagBadges tags={x.tags} /> },
      {
        key: 'software_version',
        header: t('ADMIN_SOFTWARE_VERSION'),
        visibleFrom: 'lg',
        nowrap: true,
        render: (x) => x.software_version ?? '–',
      },
      {
        key: 'actions',
        header: t('ADMIN_ACTIONS'),
        width: '8.5rem',
        render: (term) => (
          <RowActions
            name={term.terminal_id}
            onEdit={() => dialog.edit(term)}
            onToken={() => setTokenFor(term)}
            decommissionNote={t('ADMIN_DECOMMISSION_TERMINAL_TEXT')}
            onDecommission={() => decommissionAndRefresh(client, 'terminals', term.id)}
          />
        ),
      },
    ],
    [t, client, siteName, dialog.edit],
  );
  return (
    <AdminScreen
      title={t('ADMIN_TERMINALS')}
      createLabel={t('ADMIN_CREATE_TERMINAL')}
      onCreate={dialog.create}
      filters={
        <>
          <ParentFilter kind="site" />
          <TagsField
            aria-label={t('ADMIN_FILTER_TAGS')}
            placeholder={tags.length ? undefined : t('ADMIN_TAGS')}
            data={known}
            value={tags}
            onChange={setTags}
            onRejected={setBadFilter}
            error={badFilter ? t('ADMIN_TAG_INVALID', { tag: badFilter }) : undefined}
            w={{ base: '100%', sm: 260 }}
          />
          <RebootTagged tags={tags} siteId={siteId} />
        </>
      }
    >
      <AdminTable query={query} columns={columns} rowKey={(x) => x.id} label={t('ADMIN_TERMINALS')} q={q} />
      <TerminalFormModal
        opened={dialog.opened}
        onClose={dialog.close}
        terminal={dialog.editing}
        siteId={siteId}
      />
      {tokenFor && <TokenDialog terminal={tokenFor} opened onClose={() => setTokenFor(null)} />}
    </AdminScreen>
  );
}
