import { type AlertRule, RULE_EVENT_TYPE } from '@forecourt/contract/alert-rules';
import { logPath } from '@forecourt/contract/log-paths';
import { userKind } from '@forecourt/contract/users';
import { ActionIcon, Anchor, Button, Card, Center, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SeverityBadge } from '../../../../components/alerts/alert-ack.tsx';
import { Link } from '../../../../components/link.tsx';
import {
  DialogActions,
  LoadFailed,
  LoadingState,
  NotAllowedPage,
  PageTitleBar,
} from '../../../../components/page-parts.tsx';
import { PlainTable } from '../../../../components/plain-table.tsx';
import { alertQueries, notificationScope } from '../../../../lib/api/alerts.ts';
import { QUERY_ROOTS } from '../../../../lib/api/query-keys.ts';
import { deleteRule, patchRule, ruleQueries } from '../../../../lib/api/rules.ts';
import { errorText } from '../../../../lib/api-client.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import type { Scope } from '../../../../lib/scope.ts';
import { toast } from '../../../../lib/toast.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { useEditDialog } from '../admin/components/admin-screen.tsx';
import { TargetLabel } from '../targets/target-label.tsx';
import { RuleFormModal } from './rule-form.tsx';

/** How many active rule alerts the page counts per rule (the list's most). */
const COUNTED = 1000;

/** The condition in words: `battery_life < 20 · for 5 min · clears at 25`. */
export function conditionText(rule: AlertRule, t: TFunction): string {
  const signal = t(`RULES_SIGNAL_${rule.signal.toUpperCase()}`);
  const parts = [
    rule.signal === 'no_sales'
      ? t('RULES_NO_SALES_CONDITION', { baseline: rule.threshold })
      : `${signal} ${rule.op} ${rule.threshold}`,
  ];
  if (rule.for_s > 0) parts.push(t('RULES_FOR', { duration: durationText(rule.for_s, t) }));
  if (rule.clear_threshold !== null && rule.signal !== 'no_sales')
    parts.push(t('RULES_CLEARS_AT', { value: rule.clear_threshold }));
  return parts.join(' · ');
}

export function durationText(s: number, t: TFunction): string {
  if (s % 3600 === 0) return t('RULES_HOURS', { count: s / 3600 });
  if (s % 60 === 0) return t('RULES_MINUTES', { count: s / 60 });
  return t('RULES_SECONDS', { count: s });
}

/** The alert log a rule's alerts are listed in: its company's or site's, else the user's own scope's. */
export function ruleAlertsLink(rule: AlertRule, own: Scope): string {
  const { kind, id } = rule.target.scope;
  const scope: Scope = kind === 'company' || kind === 'site' ? { kind, id } : own;
  return `${logPath('alert', scope.kind, scope.id)}?rule_id=${rule.id}&state=active`;
}

/** `#/rules`: the alert rules the user reads; agents and company users create, change and delete them. */
export default function RulesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  useDocumentTitle(t('RULES_TITLE'));
  const kind = userKind(user);
  if (kind !== 'agent' && kind !== 'company') {
    return (
      <NotAllowedPage
        title={t('RULES_TITLE')}
        reason={t('RULES_NOT_ALLOWED_TITLE')}
        text={t('RULES_NOT_ALLOWED')}
      />
    );
  }
  return <RulesScreen />;
}

/** A rule's active alerts: a link to them in the alert log, or a dimmed nought. */
function ActiveCount({ rule, count, own }: { rule: AlertRule; count: number; own: Scope }) {
  const { t } = useTranslation();
  return count > 0 ? (
    <Anchor
      component={Link}
      to={ruleAlertsLink(rule, own)}
      size="sm"
      aria-label={t('RULES_ACTIVE_ALERTS_OF', { count, name: rule.name })}
    >
      {t('RULES_ACTIVE_COUNT', { count })}
    </Anchor>
  ) : (
    <Text size="sm" c="dimmed">
      {t('RULES_ACTIVE_COUNT', { count })}
    </Text>
  );
}

function RulesScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const client = useQueryClient();
  const own = notificationScope(user) ?? { kind: 'agent' as const, id: 0 };
  const rules = useQuery(ruleQueries.list());
  const alerts = useQuery(
    alertQueries.list(own, { event_type: [RULE_EVENT_TYPE], state: 'active', limit_to: COUNTED }),
  );
  const counts = useMemo(() => {
    const out = new Map<number, number>();
    for (const a of alerts.data ?? [])
      if (a.rule_id !== null) out.set(a.rule_id, (out.get(a.rule_id) ?? 0) + 1);
    return out;
  }, [alerts.data]);
  const dialog = useEditDialog<AlertRule>();
  const [deleting, setDeleting] = useState<AlertRule | null>(null);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ruleQueries.all }),
      client.invalidateQueries({ queryKey: [QUERY_ROOTS.alerts] }),
    ]);
  const toggle = useMutation({
    mutationFn: (r: AlertRule) => patchRule(r.id, { enabled: !r.enabled }),
    onSuccess: (r) => {
      toast.success(t(r.enabled ? 'RULES_ENABLED_TOAST' : 'RULES_DISABLED_TOAST', { name: r.name }));
      return refresh();
    },
    onError: (error) => toast.error(errorText(error), t('RULES_SAVE_FAILED')),
  });
  const remove = useMutation({
    mutationFn: (r: AlertRule) => deleteRule(r.id),
    onSuccess: (r) => {
      setDeleting(null);
      toast.success(t('RULES_DELETED', { name: r.name }));
      return refresh();
    },
  });
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  const rows = rules.data ?? [];
  return (
    <Stack p="md" gap="md" data-testid="rules-page">
      <PageTitleBar
        title={t('RULES_TITLE')}
        intro={t('RULES_INTRO')}
        createLabel={t('RULES_CREATE')}
        onCreate={dialog.create}
      />

      <Card withBorder padding={0} radius="md">
        {rules.isPending ? (
          <LoadingState py="xl" loaderSize="sm" />
        ) : rules.isError ? (
          <LoadFailed
            title={t('RULES_LOAD_FAILED')}
            message={errorText(rules.error)}
            onRetry={() => void rules.refetch()}
            m="md"
          />
        ) : rows.length === 0 ? (
          <Center py="xl" px="md">
            <Text c="dimmed" ta="center">
              {t('RULES_EMPTY')}
            </Text>
          </Center>
        ) : (
          <PlainTable<AlertRule>
            verticalSpacing="sm"
            highlightOnHover
            aria-label={t('RULES_TITLE')}
            minWidth={760}
            scroll={{ scrollAreaProps: { viewportProps: { tabIndex: 0 } } }}
            rows={rows}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ 'data-rule-id': r.id })}
            columns={[
              {
                label: t('RULES_NAME'),
                cell: (r) => (
                  <Text size="sm" fw={600}>
                    {r.name}
                  </Text>
                ),
              },
              { label: t('TARGET'), cell: (r) => <TargetLabel target={r.target} /> },
              {
                label: t('RULES_CONDITION'),
                cell: (r) => (
                  <Text size="sm" dir="ltr" style={{ unicodeBidi: 'plaintext' }}>
                    {conditionText(r, t)}
                  </Text>
                ),
              },
              { label: t('SEVERITY'), cell: (r) => <SeverityBadge severity={r.severity} /> },
              {
                label: t('RULES_ENABLED'),
                cell: (r) => (
                  <Switch
                    aria-label={t('RULES_ENABLED_OF', { name: r.name })}
                    checked={r.enabled}
                    disabled={toggle.isPending && toggle.variables?.id === r.id}
                    onChange={() => toggle.mutate(r)}
                  />
                ),
              },
              {
                label: t('RULES_ACTIVE_ALERTS'),
                cell: (r) => <ActiveCount rule={r} count={counts.get(r.id) ?? 0} own={own} />,
              },
              {
                label: t('RULES_ACTIONS'),
                cell: (r) => (
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('RULES_EDIT', { name: r.name })}
                      title={t('RULES_EDIT', { name: r.name })}
                      onClick={() => dialog.edit(r)}
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('RULES_DELETE', { name: r.name })}
                      title={t('RULES_DELETE', { name: r.name })}
                      onClick={() => setDeleting(r)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ),
              },
            ]}
          />
        )}
      </Card>

      <RuleFormModal opened={dialog.opened} onClose={dialog.close} rule={dialog.editing} />
      <Modal
        opened={deleting !== null}
        onClose={closeDelete}
        title={t('RULES_DELETE', { name: deleting?.name ?? '' })}
        closeButtonProps={{ 'aria-label': t('CLOSE') }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('RULES_DELETE_TEXT')}</Text>
          <DialogActions error={remove.error} onCancel={closeDelete}>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting)}
            >
              {t('RULES_DELETE_CONFIRM')}
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Stack>
  );
}
