import { COMMAND_STATE_VIEW, type CommandState } from '@forecourt/contract/commands';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Translation key of a command state; its English text is the contract's label (Queued, Sent, Done, ...). */
export const commandStateKey = (state: CommandState) => `COMMAND_STATE_${state.toUpperCase()}`;

/** The colour of a command state, the same on every screen. */
export const commandStateColor = (state: CommandState) => COMMAND_STATE_VIEW[state].color;

// A badge's label clips by default, which lets a table squeeze it to 'FAI…'; a state badge keeps its word.
const KEEP_WORD = { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } } as const;

/** A command's state as the drawer and the logs show it: its word in its colour, filled once final. */
export function CommandStateBadge({ state }: { state: CommandState }) {
  const { t } = useTranslation();
  const view = COMMAND_STATE_VIEW[state];
  return (
    <Badge color={view.color} variant={view.final ? 'filled' : 'light'} radius="sm" styles={KEEP_WORD}>
      {t(commandStateKey(state))}
    </Badge>
  );
}
