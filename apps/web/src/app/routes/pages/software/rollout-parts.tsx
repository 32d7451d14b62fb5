import type { RolloutState, RolloutStatus } from '@forecourt/contract/software';
import { userKind } from '@forecourt/contract/users';
import { Alert, Badge, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../../lib/auth/session.ts';

/** One colour per rollout state and per terminal status, for badges and the wave bars. */
export const STATE_COLORS: Record<RolloutState, string> = {
  running: 'blue',
  paused: 'yellow',
  completed: 'teal',
  cancelled: 'gray',
};
export const STATUS_COLORS: Record<RolloutStatus, string> = {
  pending: 'gray',
  sent: 'cyan',
  installing: 'blue',
  done: 'teal',
  failed: 'red',
  skipped: 'violet',
};

export function StateBadge({ state }: { state: RolloutState }) {
  const { t } = useTranslation();
  return <Badge color={STATE_COLORS[state]}>{t(`ROLLOUT_STATE_${state.toUpperCase()}`)}</Badge>;
}

export function StatusBadge({ status }: { status: RolloutStatus }) {
  const { t } = useTranslation();
  return (
    // A narrow column (a phone) squeezes the table, never the badge's word.
    <Badge color={STATUS_COLORS[status]} variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
      {t(`ROLLOUT_STATUS_${status.toUpperCase()}`)}
    </Badge>
  );
}

/** The page for agents only: anyone else reads why not (and no request is made). */
export function AgentsOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useSession();
  if (userKind(user) === 'agent') return <>{children}</>;
  return (
    <Stack p="md">
      <Alert color="red" variant="light" icon={<IconLock />} title={t('SOFTWARE')} role="alert">
        {t('SOFTWARE_AGENTS_ONLY')}
      </Alert>
    </Stack>
  );
}
