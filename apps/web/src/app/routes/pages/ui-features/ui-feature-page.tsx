import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Heading and intro shared by the UI-feature catalogue pages. */
export function UiFeaturePage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text c="dimmed">{intro}</Text>
      </div>
      {children}
    </Stack>
  );
}
