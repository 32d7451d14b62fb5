import {
  MAX_DURATION_MIN,
  type MaintenanceCreateInput,
  MaintenanceCreateSchema,
} from '@forecourt/contract/maintenance';
import type { TargetInput } from '@forecourt/contract/targets';
import {
  Checkbox,
  Group,
  Input,
  SegmentedControl,
  SimpleGrid,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocale } from '../../../../i18n/languages.ts';
import { translateMessage } from '../../../../i18n/messages.ts';
import { createWindow, maintenanceQueries } from '../../../../lib/api/maintenance.ts';
import { QUERY_ROOTS } from '../../../../lib/api/query-keys.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { toast } from '../../../../lib/toast.ts';
import { FormModal } from '../admin/components/form-modal.tsx';
import { serverErrors } from '../admin/components/server-errors.ts';
import { TargetLabel } from '../targets/target-label.tsx';
import { defaultTarget, TargetPicker } from '../targets/target-picker.tsx';
import { fromLocalInput, startToSend, toLocalInput, weekdayName } from './window-time.ts';

/** The form's fields: a server message naming one of them is shown under it. */
export const WINDOW_FIELDS = ['target', 'starts_at', 'ends_at', 'recurrence', 'reason'] as const;
type Field = (typeof WINDOW_FIELDS)[number];

/** How long a window proposed from a site or terminal lasts. */
export const QUICK_WINDOW_MS = 2 * 3_600_000;

type Mode = 'once' | 'weekly';

interface Draft {
  target: TargetInput;
  mode: Mode;
  start: string;
  end: string;
  weekdays: string[];
  time: string;
  duration: string;
  reason: string;
}

function initialDraft(target: TargetInput, now: number): Draft {
  return {
    target,
    mode: 'once',
    start: toLocalInput(now),
    end: toLocalInput(now + QUICK_WINDOW_MS),
    weekdays: ['7'],
    time: '02:00',
    duration: '120',
    reason: '',
  };
}

/** The request body of a draft, and its problems by field (the contract's own checks). */
export function draftBody(d: Draft, now: number) {
  const starts = fromLocalInput(d.start);
  const body: MaintenanceCreateInput = {
    target: d.target,
    starts_at: starts ? startToSend(starts, now) : '',
    ends_at: fromLocalInput(d.end) ?? '',
    recurrence:
      d.mode === 'weekly'
        ? {
            weekdays: d.weekdays.map(Number).sort((a, b) => a - b),
            start: d.time,
            duration_min: d.duration.trim() === '' ? Number.NaN : Number(d.duration),
          }
        : null,
    reason: d.reason,
  };
  const parsed = MaintenanceCreateSchema.safeParse(body);
  const problems: Partial<Record<Field, string>> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as Field;
      if ((WINDOW_FIELDS as readonly string[]).includes(field) && !problems[field])
        problems[field] = issue.message;
    }
  if (d.target.scope.id <= 0) problems.target = problems.target ?? 'target.scope.id must be a numeric id';
  return { body, problems };
}

export interface MaintenanceFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** A fixed target (a site's or a terminal's quick window): shown, not picked; one-off only. */
  target?: TargetInput;
}

/**
 * Declare a maintenance window (docs/rules-and-maintenance.md): its target, one-off (start → end) or weekly (days, a
 * local start time at each site and a duration, valid between two dates), and why. Times are typed in the browser's
 * zone; a weekly start is each site's own wall-clock time.
 */
export function MaintenanceFormModal({ opened, onClose, target }: MaintenanceFormModalProps) {
  const { t, i18n } = useTranslation();
  const locale = formatLocale(i18n.resolvedLanguage ?? i18n.language);
  const { user } = useSession();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => initialDraft(target ?? defaultTarget(user), Date.now()));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [rest, setRest] = useState<string[]>([]);
  const targetKey = JSON.stringify(target ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new opening (or another fixed target) starts afresh
  useEffect(() => {
    if (!opened) return;
    setDraft(initialDraft(target ?? defaultTarget(user), Date.now()));
    setErrors({});
    setRest([]);
  }, [opened, targetKey]);

  const mutation = useMutation({
    mutationFn: (body: MaintenanceCreateInput) => createWindow(body),
    onMutate: () => setRest([]),
    onSuccess: async () => {
      toast.success(t('MAINT_CREATED'));
      onClose();
      await Promise.all([
        client.invalidateQueries({ queryKey: maintenanceQueries.all }),
        client.invalidateQueries({ queryKey: [QUERY_ROOTS.alerts] }),
      ]);
    },
    onError: (error) => {
      const { byField, rest: others } = serverErrors(error, WINDOW_FIELDS);
      setErrors(byField as Partial<Record<Field, string>>);
      setRest(others);
    },
  });

  const onSubmit = (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    const { body, problems } = draftBody(draft, Date.now());
    setErrors(problems);
    if (Object.keys(problems).length) return;
    mutation.mutate(body);
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const message = (field: Field) => translateMessage(t, errors[field]) || undefined;
  const weekly = draft.mode === 'weekly';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('MAINT_CREATE')}
      size={target ? 'md' : 'lg'}
      onSubmit={onSubmit}
      pending={mutation.isPending}
      rest={rest}
    >
      {target ? (
        <Input.Wrapper label={t('TARGET')} error={message('target')}>
          <TargetLabel target={target} />
        </Input.Wrapper>
      ) : (
        <TargetPicker value={draft.target} onChange={(v) => set({ target: v })} error={message('target')} />
      )}
      {!target && (
        <SegmentedControl
          aria-label={t('MAINT_KIND')}
          value={draft.mode}
          onChange={(v) => set({ mode: v as Mode })}
          data={[
            { value: 'once', label: t('MAINT_ONCE') },
            { value: 'weekly', label: t('MAINT_WEEKLY') },
          ]}
        />
      )}
      {weekly && (
        <>
          <Checkbox.Group
            label={t('MAINT_WEEKDAYS')}
            value={draft.weekdays}
            onChange={(v) => set({ weekdays: v })}
            error={message('recurrence')}
          >
            <Group gap="sm" mt={4}>
              {[1, 2, 3, 4, 5, 6, 7].map((d) => (
                <Checkbox key={d} value={String(d)} label={weekdayName(d, locale)} />
              ))}
            </Group>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              type="time"
              label={t('MAINT_LOCAL_START')}
              description={t('MAINT_LOCAL_START_HINT')}
              value={draft.time}
              onChange={(e) => set({ time: e.currentTarget.value })}
              required
            />
            <TextInput
              label={t('MAINT_DURATION')}
              description={t('MAINT_DURATION_HINT', { max: MAX_DURATION_MIN })}
              inputMode="numeric"
              value={draft.duration}
              onChange={(e) => set({ duration: e.currentTarget.value })}
              required
            />
          </SimpleGrid>
        </>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          type="datetime-local"
          label={t(weekly ? 'MAINT_VALID_FROM' : 'MAINT_START')}
          value={draft.start}
          onChange={(e) => set({ start: e.currentTarget.value })}
          error={message('starts_at')}
          required
        />
        <TextInput
          type="datetime-local"
          label={t(weekly ? 'MAINT_VALID_UNTIL' : 'MAINT_END')}
          value={draft.end}
          onChange={(e) => set({ end: e.currentTarget.value })}
          error={message('ends_at')}
          required
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('MAINT_TIMES_IN', { zone })}
      </Text>
      <Textarea
        label={t('MAINT_REASON')}
        value={draft.reason}
        onChange={(e) => set({ reason: e.currentTarget.value })}
        error={message('reason')}
        rows={2}
        maxLength={500}
      />
    </FormModal>
  );
}
