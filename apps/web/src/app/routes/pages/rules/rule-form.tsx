import {
  type AlertRule,
  type AlertRuleCreate,
  type AlertRuleCreateInput,
  AlertRuleCreateSchema,
  type AlertRulePatch,
  RULE_OPS,
  RULE_SIGNALS,
} from '@forecourt/contract/alert-rules';
import { SEVERITIES } from '@forecourt/contract/severity';
import type { TargetInput } from '@forecourt/contract/targets';
import { zodResolver } from '@hookform/resolvers/zod';
import { Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../../i18n/messages.ts';
import { QUERY_ROOTS } from '../../../../lib/api/query-keys.ts';
import { createRule, patchRule, ruleQueries } from '../../../../lib/api/rules.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { toast } from '../../../../lib/toast.ts';
import { toNumber } from '../admin/components/entity-form.tsx';
import { FormModal } from '../admin/components/form-modal.tsx';
import { serverErrors } from '../admin/components/server-errors.ts';
import { defaultTarget, TargetPicker } from '../targets/target-picker.tsx';
import { RulePreview } from './rule-preview.tsx';

/** The rule form's fields: a server message naming one of them is shown under it. */
export const RULE_FIELDS = [
  'name',
  'target',
  'signal',
  'op',
  'threshold',
  'for_s',
  'clear_threshold',
  'severity',
  'enabled',
] as const;

type RuleForm = AlertRuleCreateInput;

function valuesOf(rule: AlertRule | null | undefined, target: TargetInput): RuleForm {
  if (!rule)
    return {
      name: '',
      target,
      signal: 'battery_life',
      op: '<',
      threshold: undefined as unknown as number,
      for_s: 0,
      clear_threshold: undefined,
      severity: 'major',
      enabled: true,
    };
  return {
    name: rule.name,
    target: rule.target,
    signal: rule.signal,
    op: rule.op,
    threshold: rule.threshold,
    for_s: rule.for_s,
    clear_threshold: rule.clear_threshold ?? undefined,
    severity: rule.severity,
    enabled: rule.enabled,
  };
}

/** What changed in an edit: only those fields are sent (an unchanged condition keeps the rule's alerts). */
export function ruleChanges(rule: AlertRule, next: AlertRuleCreate): AlertRulePatch {
  const out: Record<string, unknown> = {};
  const after: Record<string, unknown> = { ...next, clear_threshold: next.clear_threshold ?? null };
  for (const field of RULE_FIELDS) {
    if (JSON.stringify(after[field]) !== JSON.stringify((rule as Record<string, unknown>)[field]))
      out[field] = after[field];
  }
  return out as AlertRulePatch;
}

export interface RuleFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The rule being edited; a new one is created without it. */
  rule?: AlertRule | null;
}

/** Create or edit an alert rule (the contract's AlertRuleCreateSchema); the server's 400s go under their fields. */
export function RuleFormModal({ opened, onClose, rule }: RuleFormModalProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const client = useQueryClient();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm<RuleForm, unknown, AlertRuleCreate>({
    resolver: zodResolver(AlertRuleCreateSchema) as unknown as Resolver<RuleForm, unknown, AlertRuleCreate>,
    defaultValues: valuesOf(rule, defaultTarget(user)),
  });
  useEffect(() => {
    if (opened) {
      form.reset(valuesOf(rule, defaultTarget(user)));
      setRest([]);
    }
  }, [opened, rule, user, form]);

  const mutation = useMutation({
    mutationFn: (values: AlertRuleCreate) =>
      rule ? patchRule(rule.id, ruleChanges(rule, values)) : createRule(values),
    onMutate: () => setRest([]),
    onSuccess: async (saved) => {
      toast.success(t(rule ? 'RULES_SAVED' : 'RULES_CREATED', { name: saved.name }));
      onClose();
      await Promise.all([
        client.invalidateQueries({ queryKey: ruleQueries.all }),
        client.invalidateQueries({ queryKey: [QUERY_ROOTS.alerts] }),
      ]);
    },
    onError: (error) => {
      const { byField, rest: others } = serverErrors(error, RULE_FIELDS);
      for (const [field, message] of Object.entries(byField))
        form.setError(field as never, { type: 'server', message }, { shouldFocus: true });
      setRest(others);
    },
  });

  const errors = form.formState.errors as Record<string, { message?: string } | undefined>;
  const message = (field: string) => {
    const e = errors[field];
    return translateMessage(t, e?.message ?? firstNested(e)) || undefined;
  };
  const watched = form.watch();
  const signal = watched.signal;
  const noSales = signal === 'no_sales';
  useEffect(() => {
    if (noSales && form.getValues('op') !== '>=') form.setValue('op', '>=');
  }, [noSales, form]);

  const select = (
    name: 'signal' | 'op' | 'severity',
    label: string,
    data: Array<{ value: string; label: string }>,
    disabled = false,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={t(label)}
          data={data}
          value={field.value ?? null}
          onChange={(v) => field.onChange(v ?? undefined)}
          onBlur={field.onBlur}
          allowDeselect={false}
          disabled={disabled}
          required
          error={message(name)}
        />
      )}
    />
  );
  const number = (name: 'threshold' | 'for_s' | 'clear_threshold', label: string, description?: string) => (
    <TextInput
      label={t(label)}
      description={description}
      inputMode="decimal"
      required={name !== 'clear_threshold'}
      {...form.register(name, { setValueAs: toNumber })}
      error={message(name)}
    />
  );

  const title = rule ? t('RULES_EDIT', { name: rule.name }) : t('RULES_CREATE');
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      onSubmit={form.handleSubmit((v) => mutation.mutate(v))}
      pending={mutation.isPending}
      rest={rest}
    >
      <TextInput label={t('RULES_NAME')} required {...form.register('name')} error={message('name')} />
      <Controller
        control={form.control}
        name="target"
        render={({ field }) => (
          <TargetPicker value={field.value} onChange={field.onChange} error={message('target')} />
        )}
      />
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        {select(
          'signal',
          'RULES_SIGNAL',
          RULE_SIGNALS.map((s) => ({ value: s, label: t(`RULES_SIGNAL_${s.toUpperCase()}`) })),
        )}
        {select(
          'op',
          'RULES_OP',
          RULE_OPS.map((o) => ({ value: o, label: o })),
          noSales,
        )}
        {number('threshold', noSales ? 'RULES_BASELINE' : 'RULES_THRESHOLD')}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {number('for_s', 'RULES_FOR_S', t('RULES_FOR_S_HINT'))}
        {!noSales && number('clear_threshold', 'RULES_CLEAR_THRESHOLD', t('RULES_CLEAR_THRESHOLD_HINT'))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {select(
          'severity',
          'SEVERITY',
          SEVERITIES.map((s) => ({ value: s, label: t(`SEVERITY_${s.toUpperCase()}`) })),
        )}
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <Switch
              label={t('RULES_ENABLED')}
              checked={field.value ?? true}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              mt={{ base: 0, xs: 30 }}
            />
          )}
        />
      </SimpleGrid>
      <RulePreview values={watched} />
    </FormModal>
  );
}

/** The first message inside a nested field's errors (`target.scope.id`). */
export function firstNested(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== 'object' || depth > 3) return undefined;
  for (const [key, v] of Object.entries(e)) {
    if (key === 'ref' || !v || typeof v !== 'object') continue;
    const m = (v as { message?: unknown }).message;
    if (typeof m === 'string') return m;
    const inner = firstNested(v, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}
