import { Anchor, type AnchorProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { paths } from '../config/paths.ts';
import { Link } from './link.tsx';

export interface TerminalLinkProps extends AnchorProps {
  /** The terminal's site (its page lives under it). */
  siteId: number | null | undefined;
  /** The terminal's row id, as in `/api/terminal/{id}/`. */
  terminalId: number | null | undefined;
  /** What the link reads: usually the terminal number. */
  children: ReactNode;
}

/**
 * A terminal named in a widget or a log row, leading to its page (`#/site/{siteId}/terminal/{id}`); plain text
 * when the row does not say which terminal or site it is.
 */
export function TerminalLink({ siteId, terminalId, children, ...anchor }: TerminalLinkProps) {
  if (!siteId || !terminalId) return <>{children}</>;
  return (
    <Anchor component={Link} to={paths.terminal(siteId, terminalId)} size="sm" {...anchor}>
      {children}
    </Anchor>
  );
}
