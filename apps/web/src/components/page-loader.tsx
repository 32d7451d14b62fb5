import { Center, Loader } from '@mantine/core';

/** Shown while a lazily loaded page or the translations arrive. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih={200} h="100%" role="status" aria-label={label}>
      <Loader size="md" />
    </Center>
  );
}
