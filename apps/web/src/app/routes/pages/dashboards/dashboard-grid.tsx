import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import './dashboard-grid.css';

/**
 * The responsive grid every dashboard lays its widgets on: one column on phones, two on tablets,
 * three on wide screens. Widgets flow in order; `Cell` lets one span more columns or two rows.
 */
export function DashboardGrid({ children }: { children?: ReactNode }) {
  return <div className="fc-dashboard-grid">{children}</div>;
}

export interface CellProps {
  /** Columns to span where there is room (1 on phones always). @default 1 */
  span?: 1 | 2 | 3;
  /** Rows to span (double-height widgets: size2X). @default 1 */
  rows?: 1 | 2;
  children: ReactNode;
}

export function Cell({ span = 1, rows = 1, children }: CellProps) {
  return (
    <div className="fc-dashboard-cell" data-span={span} data-rows={rows}>
      {children}
    </div>
  );
}

/** The page heading is always 'Dashboard'; what it shows (agent, company, site) follows it. */
export function DashboardHeader({ title, subtitle }: { title: ReactNode; subtitle?: ReactNode }) {
  return (
    <Group align="baseline" mb="md" gap="xs" wrap="wrap">
      <Title order={1} fz="h2">
        {title}
      </Title>
      {subtitle && (
        <Text c="dimmed" fz="lg" fw={500} data-testid="dashboard-scope">
          {subtitle}
        </Text>
      )}
    </Group>
  );
}
