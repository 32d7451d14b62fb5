import { userKind } from '@forecourt/contract/users';
import { Box, Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/auth/session.ts';
import type { LayoutId } from '../../lib/layout-store.ts';

const KIND_LABELS = {
  agent: 'KIND_AGENT',
  company: 'KIND_COMPANY',
  site: 'KIND_SITE',
  none: 'KIND_NONE',
} as const;

/** A short list (the first six) under a small heading; nothing when empty. */
function NameList({ title, names = [] }: { title: string; names?: { id: number; name: string }[] }) {
  if (names.length === 0) return null;
  return (
    <Stack gap={2} mt="sm">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {names.slice(0, 6).map((n) => (
        <Text key={n.id} size="sm" lineClamp={1}>
          {n.name}
        </Text>
      ))}
    </Stack>
  );
}

/** The narrow column of the two- and three-column layouts: who is signed in and what they reach. */
function AccountColumn() {
  const { t } = useTranslation();
  const { user } = useSession();
  const kind = userKind(user);
  return (
    <Card padding="md">
      <Title order={2} fz="sm" mb="xs">
        {t('YOUR_ACCOUNT')}
      </Title>
      <Text fw={700}>{user?.name || user?.username}</Text>
      <Text size="sm" c="dimmed">
        {t(KIND_LABELS[kind])}
      </Text>
      <NameList title={t('COMPANIES')} names={user?.companies.map((c) => ({ id: c.id, name: c.name }))} />
      <NameList
        title={t('SITES')}
        names={user?.sites.map((s) => ({ id: s.id, name: `${s.title} · ${s.number}` }))}
      />
    </Card>
  );
}

function SupportColumn() {
  const { t } = useTranslation();
  return (
    <Card padding="md">
      <Title order={2} fz="sm" mb="xs">
        {t('SUPPORT_US')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('SUPPORT_US_TEXT')}
      </Text>
    </Card>
  );
}

/** Arranges the page in the chosen layout: one column, two, three, or one centred column (max 1200px). */
export function LayoutColumns({ layout, children }: { layout: LayoutId; children: ReactNode }) {
  return (
    <Box className="fc-columns" data-layout={layout}>
      {(layout === 'two-column' || layout === 'three-column') && (
        <Box component="aside" className="fc-column fc-column-small" visibleFrom="lg">
          <AccountColumn />
        </Box>
      )}
      <Box className="fc-column fc-column-main">{children}</Box>
      {layout === 'three-column' && (
        <Box component="aside" className="fc-column fc-column-small" visibleFrom="lg">
          <SupportColumn />
        </Box>
      )}
    </Box>
  );
}
