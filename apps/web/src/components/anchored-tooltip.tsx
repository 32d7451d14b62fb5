import { Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { ElementTarget } from './on-demand.tsx';

/** The Tooltip of on-demand.tsx's DeferredTooltip, fetched on first hover. */
export function AnchoredTooltip({
  element,
  opened,
  label,
  ...props
}: {
  element: HTMLElement | null;
  opened: boolean;
  label: ReactNode;
  multiline?: boolean;
  maw?: number;
  withArrow?: boolean;
  withinPortal?: boolean;
}) {
  return (
    <Tooltip label={label} opened={opened} {...props}>
      <ElementTarget element={element} />
    </Tooltip>
  );
}
