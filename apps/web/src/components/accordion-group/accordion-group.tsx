import '@mantine/core/styles/Accordion.layer.css';
import { Accordion, Group, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

export interface AccordionPanel {
  /** Unique value of the panel. */
  value: string;
  title: ReactNode;
  subtitle?: ReactNode;
  /** Shown at the right of the title (e.g. an alert image). */
  badge?: ReactNode;
  content: ReactNode;
}

export interface AccordionGroupProps {
  panels: AccordionPanel[];
  /** Panel open at first. @default none */
  defaultOpen?: string | null;
  /** Accessible name of the group. */
  label?: string;
}

/**
 * Accordion group: at most one panel is open at a time; opening one closes the other, and clicking
 * the open panel closes it.
 */
export function AccordionGroup({ panels, defaultOpen = null, label }: AccordionGroupProps) {
  const [open, setOpen] = useState<string | null>(defaultOpen);
  return (
    <Accordion
      value={open}
      onChange={(value) => setOpen((current) => (value === current ? null : value))}
      variant="separated"
      chevronPosition="right"
      // A closed panel's content is not rendered (Mantine keeps it, hidden, by default): a pump's whole status log
      // drawn for every closed panel was main-thread work on a site dashboard's first view that nobody sees.
      keepMounted={false}
      aria-label={label}
      styles={{ control: { paddingBlock: 2 }, content: { paddingTop: 0 } }}
    >
      {panels.map((p) => (
        <Accordion.Item key={p.value} value={p.value}>
          <Accordion.Control>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {p.title}
                </Text>
                {p.subtitle !== undefined && (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {p.subtitle}
                  </Text>
                )}
              </div>
              {p.badge}
            </Group>
          </Accordion.Control>
          <Accordion.Panel>{p.content}</Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
