import type { TargetInput } from '@forecourt/contract/targets';
import { Button } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onDemand, preload, useOnDemand } from '../../../../components/on-demand.tsx';

/** The form, with its modal code: fetched when the button is first pointed at or pressed. */
const formModule = onDemand(() => import('./maintenance-form.tsx'));

export interface MaintenanceButtonProps {
  /** What the window covers: the site or the terminal of the page. */
  target: TargetInput;
}

/** "Maintenance window": a one-off window on this site or terminal, from now for two hours, in two clicks. */
export function MaintenanceButton({ target }: MaintenanceButtonProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const loaded = useOnDemand(formModule, opened);
  const warm = () => preload(formModule);
  return (
    <>
      <Button
        variant="light"
        size="xs"
        leftSection={<IconTool size={14} aria-hidden />}
        onClick={() => setOpened(true)}
        onPointerEnter={warm}
        onFocus={warm}
        aria-haspopup="dialog"
      >
        {t('MAINT_BUTTON')}
      </Button>
      {loaded && (
        <loaded.MaintenanceFormModal opened={opened} onClose={() => setOpened(false)} target={target} />
      )}
    </>
  );
}
