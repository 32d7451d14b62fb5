import { onDemand, preload, useOnDemand, useOpenAfterMount } from '../on-demand.tsx';
import type { CommandTimelineTarget } from './command-timeline.tsx';

export type { CommandTimelineTarget } from './command-timeline.tsx';

/** The drawer and the timeline (Mantine's Drawer, focus trap and scroll lock): fetched on first use. */
const timelineModule = onDemand(() => import('./command-timeline.tsx'));

/** Starts fetching the drawer's code (pointer or focus on a control that opens it). */
export const preloadCommandTimeline = () => preload(timelineModule);

interface DrawerProps {
  target: CommandTimelineTarget | null;
  onClose: () => void;
}

function FetchedDrawer({
  module,
  target,
  onClose,
}: DrawerProps & { module: typeof import('./command-timeline.tsx') }) {
  // Opened after its first commit, so the drawer notes the focused control and gives focus back on close.
  const opened = useOpenAfterMount(target !== null);
  return <module.CommandTimelineDrawer target={opened ? target : null} onClose={onClose} />;
}

/**
 * A drawer holding the command timeline of a pump or terminal; closed when `target` is null. Its code is not part
 * of a dashboard's first view: it is fetched when the drawer first opens (or the pointer comes near its button).
 */
export function CommandTimelineDrawer({ target, onClose }: DrawerProps) {
  const module = useOnDemand(timelineModule, target !== null);
  return module ? <FetchedDrawer module={module} target={target} onClose={onClose} /> : null;
}
