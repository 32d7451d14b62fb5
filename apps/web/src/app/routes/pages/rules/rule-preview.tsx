import {
  type AlertRuleCreateInput,
  type AlertRulePreviewRequest,
  AlertRulePreviewRequestSchema,
} from '@forecourt/contract/alert-rules';
import { Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateWriters } from '../../../../i18n/format.ts';
import { rulePreviewQuery } from '../../../../lib/api/rules.ts';

/** Typing settles before the preview is asked for. */
const PREVIEW_DELAY_MS = 500;
/** How many of the terminals that would have fired are listed. */
const PREVIEW_LIST = 5;

/** The preview's body from the form's values, or null while they do not make a rule yet. */
export function previewBody(values: Partial<AlertRuleCreateInput>): AlertRulePreviewRequest | null {
  const body = {
    target: values.target,
    signal: values.signal,
    op: values.op,
    threshold: values.threshold,
    for_s: values.for_s ?? 0,
    clear_threshold: values.clear_threshold,
    limit_to: PREVIEW_LIST,
  };
  const checked = AlertRulePreviewRequestSchema.safeParse(body);
  if (!checked.success || !checked.data.target.scope.id) return null;
  return body as AlertRulePreviewRequest;
}

/**
 * The rule editor's 7-day preview (docs/rules-and-maintenance.md "The editor's preview"): as the condition or target
 * changes, and once typing settles, what the rule would have fired on, from the hourly roll-ups. Announced politely.
 */
export function RulePreview({ values }: { values: Partial<AlertRuleCreateInput> }) {
  const { t } = useTranslation();
  const { dateTime } = useDateWriters();
  const titleId = useId();
  const noSales = values.signal === 'no_sales';
  const wanted = noSales ? null : previewBody(values);
  const [body] = useDebouncedValue(wanted, PREVIEW_DELAY_MS);
  const settled = JSON.stringify(body) === JSON.stringify(wanted);
  const query = useQuery({
    ...rulePreviewQuery(body ?? ({} as AlertRulePreviewRequest)),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });

  let content: React.ReactNode;
  if (noSales) content = <Text size="sm">{t('RULES_PREVIEW_NO_SALES')}</Text>;
  else if (wanted === null) content = <Text size="sm">{t('RULES_PREVIEW_INCOMPLETE')}</Text>;
  else if (query.isError)
    content = (
      <Text size="sm" c="red">
        {t('RULES_PREVIEW_FAILED')}
      </Text>
    );
  else if (!query.data)
    content = (
      <Text size="sm" c="dimmed">
        <Loader size="xs" me={6} aria-hidden />
        {t('RULES_PREVIEW_LOADING')}
      </Text>
    );
  else {
    const p = query.data;
    content = (
      <Stack gap={4} style={{ opacity: settled && !query.isFetching ? 1 : 0.6 }}>
        <Text size="sm" fw={500}>
          {t('RULES_PREVIEW_FIRED', { fired: p.fired, terminals: p.terminals })}
        </Text>
        {p.fired === 0 ? (
          <Text size="sm">{t('RULES_PREVIEW_NONE')}</Text>
        ) : (
          <>
            <Text size="sm">{t('RULES_PREVIEW_ALERTS', { alerts: p.alerts })}</Text>
            <Stack component="ul" gap={2} m={0} ps="md" aria-label={t('RULES_PREVIEW_LIST')}>
              {p.first.map((x) => (
                <Text component="li" size="xs" key={x.id}>
                  {t('RULES_PREVIEW_ROW', {
                    terminal: x.terminal_id,
                    site: x.site_title,
                    at: dateTime(new Date(x.first_at)),
                    alerts: x.alerts,
                  })}
                </Text>
              ))}
            </Stack>
            {p.fired > p.first.length && (
              <Text size="xs" c="dimmed">
                {t('RULES_PREVIEW_MORE', { count: p.fired - p.first.length })}
              </Text>
            )}
          </>
        )}
      </Stack>
    );
  }

  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-labelledby={titleId}
      data-testid="rule-preview"
      aria-busy={!settled || query.isFetching}
    >
      <Title order={3} size="sm" id={titleId}>
        {t('RULES_PREVIEW_TITLE')}
      </Title>
      <Text size="xs" c="dimmed" mb={6}>
        {t('RULES_PREVIEW_HINT')}
      </Text>
      <div aria-live="polite">{content}</div>
    </Paper>
  );
}
