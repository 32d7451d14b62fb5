import type { RebootType } from '@forecourt/contract/terminals';
import { Anchor, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { IconHistory, IconPower } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CommandTimelineDrawer,
  type CommandTimelineTarget,
} from '../../../components/command-timeline/command-timeline-drawer.tsx';
import { Link } from '../../../components/link.tsx';
import { WidgetCard } from '../../../components/widget-card.tsx';
import { commandQueries } from '../../../lib/api/commands.ts';
import { companyQueries } from '../../../lib/api/companies.ts';
import { siteQueries } from '../../../lib/api/sites.ts';
import { errorText } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/auth/session.ts';
import type { Scope } from '../../../lib/scope.ts';
import { toast } from '../../../lib/toast.ts';
import { terminalQueries } from '../api/get-site-terminals.ts';
import { rebootTerminal } from '../api/reboot-terminal.ts';
import {
  chainEnabled,
  initialChain,
  presetId,
  rebootChainReducer,
  rebootLogPath,
  validPresets,
} from '../reboot-chain.ts';
import './reboot.css';

export interface TerminalRebootProps {
  /** The agent's or company's terminals to choose from, or one site's (its company then comes from its detail). */
  scope: Scope;
}

/** The reboot options: a translated name and the value sent as reboot_type. */
export const REBOOT_OPTIONS: { value: RebootType; name: string }[] = [
  { value: 'software', name: 'REBOOT_SOFTWARE' },
  { value: 'full', name: 'REBOOT_FULL' },
];

const toId = (value: string) => (value === '' ? null : Number(value));

/** The text of the chosen option (a hover title: long names are cut in the narrow dropdowns). */
const labelOf = (data: { value: string; label: string }[], value: string) =>
  data.find((d) => d.value === value)?.label;

/**
 * Terminal reboot (sections 2, 4, 8): company → site → terminal → reboot type, then the large reboot
 * image opens a confirm modal; OK sends the reboot, says so at once and clears the choices.
 */
export function TerminalReboot({ scope }: TerminalRebootProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { user } = useSession();
  const isSite = scope.kind === 'site' && presetId(scope.id) !== null;
  const siteDetail = useQuery({ ...siteQueries.detail(scope.id), enabled: isSite });
  const siteCompanyId = siteDetail.data?.company_id;
  const presets = useMemo(
    () =>
      validPresets({
        agentId: scope.kind === 'agent' ? scope.id : null,
        companyId: scope.kind === 'company' ? scope.id : scope.kind === 'site' ? siteCompanyId : null,
        siteId: scope.kind === 'site' ? scope.id : null,
      }),
    [scope.kind, scope.id, siteCompanyId],
  );
  const reducer = useMemo(() => rebootChainReducer(presets), [presets]);
  const [chain, dispatch] = useReducer(reducer, presets, initialChain);
  useEffect(() => dispatch({ type: 'reset', presets }), [presets]);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [lastRebooted, setLastRebooted] = useState<{ id: number; number: string } | null>(null);
  const [history, setHistory] = useState<CommandTimelineTarget | null>(null);

  // Companies: the caller's own list, or the preset company's name (from the preset site's detail when
  // there is one: a site user may not read the company itself).
  const companies = user?.companies ?? [];
  const presetCompanyKnown = companies.find((c) => c.id === presets.companyId);
  const companyDetail = useQuery({
    ...companyQueries.detail(presets.companyId ?? 0),
    enabled: presets.companyId !== null && !presetCompanyKnown && presets.siteId === null,
  });
  const presetCompanyName =
    presetCompanyKnown?.name ??
    companyDetail.data?.name ??
    (siteDetail.data?.company_id === presets.companyId ? siteDetail.data?.company_name : undefined);

  const sites = useQuery({
    ...siteQueries.list({ kind: 'company', id: chain.company ?? 0 }),
    enabled: chain.company !== null && presets.siteId === null,
  });
  const presetSiteTitle = user?.sites.find((s) => s.id === presets.siteId)?.title ?? siteDetail.data?.title;

  const terminals = useQuery({
    ...terminalQueries.site({ kind: 'site', id: chain.site ?? 0 }),
    enabled: chain.site !== null,
  });

  const companyIds = companies.map((c) => c.id).join(',');
  useEffect(() => {
    // A preset site fixes its company: it comes with the site's detail, not from the user's list.
    if (presets.companyId === null && presets.siteId === null && companyIds) {
      dispatch({ type: 'companiesLoaded', ids: companyIds.split(',').map(Number) });
    }
  }, [companyIds, presets.companyId, presets.siteId]);
  useEffect(() => {
    if (sites.data && chain.company !== null && chain.sitesLoadedFor !== chain.company) {
      dispatch({ type: 'sitesLoaded', companyId: chain.company, ids: sites.data.map((s) => s.id) });
    }
  }, [sites.data, chain.company, chain.sitesLoadedFor]);
  useEffect(() => {
    if (terminals.data && chain.site !== null && chain.terminalsLoadedFor !== chain.site) {
      dispatch({ type: 'terminalsLoaded', siteId: chain.site, ids: terminals.data.map((x) => x.id) });
    }
  }, [terminals.data, chain.site, chain.terminalsLoadedFor]);

  const enabled = chainEnabled(chain);
  const terminal = terminals.data?.find((x) => x.id === chain.terminal) ?? null;
  const rebootOption = REBOOT_OPTIONS.find((o) => o.value === chain.rebootType) ?? null;
  const ready = enabled.reboot && terminal !== null && rebootOption !== null;

  const reboot = useMutation({
    mutationFn: ({ id, type }: { id: number; type: RebootType; number: string }) => rebootTerminal(id, type),
    onSettled: (_d, _e, { id }) =>
      void client.invalidateQueries({ queryKey: commandQueries.owner('terminal', id) }),
    onError: (error) => toast.error(errorText(error), t('REBOOT_FAILED')),
  });

  const onConfirm = () => {
    setConfirmOpen(false);
    if (!terminal || !rebootOption) return;
    reboot.mutate({ id: terminal.id, type: rebootOption.value, number: terminal.terminal_id });
    // The request goes out and the toast shows at once, without waiting for the answer.
    toast.success(t('TERMINAL_REBOOTING_WAIT_TIL_FINISHED'));
    setLastRebooted({ id: terminal.id, number: terminal.terminal_id });
    dispatch({ type: 'rebooted' });
  };

  const placeholder = (text: string) => ({ value: '', label: text, disabled: true });

  const companyData =
    presets.companyId !== null
      ? [{ value: String(presets.companyId), label: presetCompanyName ?? t('COMPANY_PLACEHOLDER') }]
      : [
          placeholder(t('COMPANY_PLACEHOLDER')),
          ...companies.map((c) => ({ value: String(c.id), label: c.name })),
        ];
  const siteData =
    presets.siteId !== null
      ? [{ value: String(presets.siteId), label: presetSiteTitle ?? t('SITE_PLACEHOLDER') }]
      : [
          placeholder(t('SITE_PLACEHOLDER')),
          ...(chain.company !== null ? (sites.data ?? []) : []).map((s) => ({
            value: String(s.id),
            label: s.title,
          })),
        ];
  const terminalData = [
    placeholder(t('TERMINAL_PLACEHOLDER')),
    ...(chain.site !== null ? (terminals.data ?? []) : []).map((x) => ({
      value: String(x.id),
      label: x.terminal_id,
    })),
  ];
  const typeData = [
    placeholder(t('CHOOSE_OPTION')),
    ...REBOOT_OPTIONS.map((o) => ({ value: o.value, label: t(o.name) })),
  ];

  const canReadCompany =
    (user?.agent ?? 0) > 0 || companies.some((c) => c.id === presets.companyId) || user === null;
  const logPath = rebootLogPath(presets, canReadCompany);
  const historyTarget =
    terminal ?? (lastRebooted ? { id: lastRebooted.id, terminal_id: lastRebooted.number } : null);
  const loadError = sites.error ?? terminals.error;

  return (
    <WidgetCard
      title={t('TERMINAL_REBOOT')}
      info={{ title: t('TERMINAL_REBOOT'), description: t('TERMINAL_REBOOT_INFO') }}
      height={220}
      data-testid="terminal-reboot"
      footer={
        <Group gap="sm" wrap="nowrap">
          {logPath && (
            <Anchor component={Link} to={logPath} size="sm">
              {t('REBOOT_LOG')}
            </Anchor>
          )}
          {historyTarget && (
            <Button
              variant="subtle"
              size="compact-xs"
              leftSection={<IconHistory size={14} />}
              aria-label={t('TERMINAL_HISTORY', { terminal: historyTarget.terminal_id })}
              onClick={() =>
                setHistory({
                  owner: 'terminal',
                  id: historyTarget.id,
                  label: t('TERMINAL_NO', { terminal: historyTarget.terminal_id }),
                })
              }
            >
              {t('COMMAND_HISTORY')}
            </Button>
          )}
        </Group>
      }
    >
      <Group wrap="nowrap" gap="sm" align="center">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <div className="fc-reboot-selects">
            <NativeSelect
              size="xs"
              aria-label={t('REBOOT_COMPANY')}
              title={labelOf(companyData, chain.company === null ? '' : String(chain.company))}
              data={companyData}
              value={chain.company === null ? '' : String(chain.company)}
              disabled={presets.companyId !== null || companies.length === 0}
              onChange={(e) => dispatch({ type: 'selectCompany', id: toId(e.currentTarget.value) })}
            />
            <NativeSelect
              size="xs"
              aria-label={t('REBOOT_SITE')}
              title={labelOf(siteData, chain.site === null ? '' : String(chain.site))}
              data={siteData}
              value={chain.site === null ? '' : String(chain.site)}
              disabled={presets.siteId !== null || !enabled.site}
              onChange={(e) => dispatch({ type: 'selectSite', id: toId(e.currentTarget.value) })}
            />
            <NativeSelect
              size="xs"
              aria-label={t('REBOOT_TERMINAL')}
              title={labelOf(terminalData, chain.terminal === null ? '' : String(chain.terminal))}
              data={terminalData}
              value={chain.terminal === null ? '' : String(chain.terminal)}
              disabled={!enabled.terminal}
              onChange={(e) => dispatch({ type: 'selectTerminal', id: toId(e.currentTarget.value) })}
            />
            <NativeSelect
              size="xs"
              aria-label={t('REBOOT_TYPE')}
              title={labelOf(typeData, chain.rebootType ?? '')}
              data={typeData}
              value={chain.rebootType ?? ''}
              disabled={!enabled.rebootType}
              onChange={(e) =>
                dispatch({
                  type: 'selectRebootType',
                  value: (e.currentTarget.value || null) as RebootType | null,
                })
              }
            />
          </div>
          {loadError ? (
            <Text size="xs" c="red" role="alert" lineClamp={2}>
              {errorText(loadError)}
            </Text>
          ) : null}
        </Stack>
        <button
          type="button"
          className="fc-reboot-image"
          data-ready={ready}
          disabled={!ready}
          aria-label={t('REBOOT_BUTTON')}
          title={t('REBOOT_BUTTON')}
          onClick={() => setConfirmOpen(true)}
        >
          <IconPower size="60%" stroke={2.2} aria-hidden />
        </button>
      </Group>
      <Modal
        opened={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title={t('REBOOT_CONFIRM_TITLE')}
        withCloseButton={false}
        centered
      >
        <Stack>
          <Text>
            {t('REBOOT_CONFIRM_TEXT', {
              type: rebootOption ? t(rebootOption.name).toLowerCase() : '',
              terminalNumber: terminal?.terminal_id ?? '',
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmOpen(false)}>
              {t('CLOSE')}
            </Button>
            <Button color="red" onClick={onConfirm}>
              {t('OK')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <CommandTimelineDrawer target={history} onClose={() => setHistory(null)} />
    </WidgetCard>
  );
}
