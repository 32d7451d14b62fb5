import { Group, Text } from '@mantine/core';
import { env } from '../config/env.ts';

/** The fuel-card company mark: a pump in a rounded square, and the company label. */
export function Logo({ size = 32, withLabel = true }: { size?: number; withLabel?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap" className="fc-logo">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
        <path d="M10 8h9a3 3 0 0 1 3 3v13h-12z" fill="#fff" />
        <rect x="12" y="10.5" width="7" height="5" rx="1" fill="var(--mantine-primary-color-filled)" />
        <path
          d="M22 13h2.5a1.5 1.5 0 0 1 1.5 1.5V21a1.5 1.5 0 0 0 3 0v-8l-2.5-2.5"
          stroke="#fff"
          strokeWidth="1.6"
          fill="none"
          strokeLinecap="round"
        />
      </svg>
      {withLabel && (
        <Text component="span" fw={800} fz="lg" lh={1} style={{ letterSpacing: '-0.01em' }}>
          {env.companyLabel}
        </Text>
      )}
    </Group>
  );
}
