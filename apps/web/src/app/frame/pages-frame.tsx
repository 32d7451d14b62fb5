import '../../theme/frame-styles.ts';
import { AppShell } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useLayoutEffect } from 'react';
import { Navigate, useRoutes } from 'react-router';
import { useOnDemand, useOpenAfterMount } from '../../components/on-demand.tsx';
import { useCancelLiveOnNavigate } from '../../lib/api/live.ts';
import { useLayout } from '../../lib/layout-store.ts';
import { useLiveStream } from '../../lib/live-stream-start.ts';
import { queryClient } from '../../lib/query-client.ts';
import { DataProviders } from '../data-providers.tsx';
import { pagesRoutes } from '../routes/pages-routes.tsx';
import { FrameFooter } from './frame-footer.tsx';
import { FrameHeader, settingsModule } from './frame-header.tsx';
import { type KioskMode, useKiosk } from './kiosk.ts';
import { LayoutColumns } from './layout-columns.tsx';
import { MenuSidebar } from './menu-sidebar.tsx';
import { useSessionWatch } from './use-session-watch.ts';

// What a wall screen does while it shows (rotation, its session kept alive): loaded only when one opens.
const KioskRunner = lazy(() => import('./kiosk-mode.tsx'));

/** Menu sidebar width (13rem). */
const SIDEBAR_WIDTH = 208;
/** Small screens: the menu sidebar overlays the page and collapses after a pick. */
const SMALL_SCREEN = '(max-width: 48em)';
/** Delay before the menu collapses after a pick on small screens. */
export const MENU_COLLAPSE_DELAY_MS = 20;

/** The page frame of the signed-in area: header, menu sidebar, layout columns, footer, settings sidebar. */
export default function PagesFrame() {
  useEffect(() => () => queryClient.clear(), []);
  return (
    <DataProviders queryClient={queryClient}>
      <Frame />
    </DataProviders>
  );
}

function Frame() {
  useSessionWatch();
  useLiveStream();
  useCancelLiveOnNavigate();
  const kiosk = useKiosk();
  if (kiosk.on) return <KioskFrame mode={kiosk} />;
  return <FullFrame />;
}

/** A wall screen (`?kiosk=1`, app/frame/kiosk.ts): the dashboard alone, no header, sidebars or footer. */
function KioskFrame({ mode }: { mode: KioskMode }) {
  // The larger type is on from the first paint; the rest of the wall screen's work loads with KioskRunner.
  useLayoutEffect(() => {
    document.documentElement.dataset.kiosk = '';
    return () => {
      delete document.documentElement.dataset.kiosk;
    };
  }, []);
  return (
    <main className="fc-main fc-kiosk">
      <Suspense fallback={null}>
        <KioskRunner mode={mode} />
      </Suspense>
      <div className="fc-main-inner">
        <PagesRoutes />
      </div>
    </main>
  );
}

function FullFrame() {
  const { layout, sidebar } = useLayout();
  const small = useMediaQuery(SMALL_SCREEN, false, { getInitialValueInEffect: false });
  const [mobileOpen, mobile] = useDisclosure(false);
  const [desktopOpen, desktop] = useDisclosure(true);
  const [settingsOpen, settings] = useDisclosure(false);

  const sidebarOpen = small ? mobileOpen : desktopOpen;
  const toggleSidebar = () => (small ? mobile.toggle() : desktop.toggle());

  const onPick = useCallback(() => {
    if (small) setTimeout(mobile.close, MENU_COLLAPSE_DELAY_MS);
  }, [small, mobile.close]);

  useEffect(() => {
    if (!small) mobile.close();
  }, [small, mobile.close]);

  const sidebarConfig = {
    width: SIDEBAR_WIDTH,
    breakpoint: 'sm',
    collapsed: { mobile: !mobileOpen, desktop: !desktopOpen },
  };
  const withSupport = layout === 'two-column' || layout === 'three-column';
  const menu = <MenuSidebar onPick={onPick} withSupport={withSupport} />;

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={sidebar === 'left' ? sidebarConfig : undefined}
      aside={sidebar === 'right' ? sidebarConfig : undefined}
      padding={0}
      className="fc-shell"
      data-sidebar={sidebar}
    >
      <AppShell.Header className="fc-shell-header">
        <FrameHeader
          sidebarOpen={sidebarOpen}
          onToggleSidebar={toggleSidebar}
          settingsOpen={settingsOpen}
          onToggleSettings={settings.toggle}
        />
      </AppShell.Header>
      {sidebar === 'left' ? (
        <AppShell.Navbar className="fc-menu-sidebar">{menu}</AppShell.Navbar>
      ) : (
        <AppShell.Aside className="fc-menu-sidebar">{menu}</AppShell.Aside>
      )}
      <AppShell.Main className="fc-main">
        <div className="fc-main-inner">
          <LayoutColumns layout={layout}>
            <PagesRoutes />
          </LayoutColumns>
        </div>
        <FrameFooter />
      </AppShell.Main>
      <Settings opened={settingsOpen} onClose={settings.close} />
    </AppShell>
  );
}

/** The settings drawer, fetched the first time it opens. */
function Settings({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const loaded = useOnDemand(settingsModule, opened);
  return loaded ? (
    <LoadedSettings Sidebar={loaded.SettingsSidebar} opened={opened} onClose={onClose} />
  ) : null;
}

function LoadedSettings({
  Sidebar,
  opened,
  onClose,
}: {
  Sidebar: (props: { opened: boolean; onClose: () => void }) => ReactNode;
  opened: boolean;
  onClose: () => void;
}) {
  return <Sidebar opened={useOpenAfterMount(opened)} onClose={onClose} />;
}

const guardedRoutes = [...pagesRoutes, { path: '*', element: <Navigate to="/auth/login" replace /> }];

/**
 * The guarded pages' route table lives here, in the lazily loaded frame, so the login route does not
 * carry it. An unknown path inside the pages area goes to auth/login like everywhere else.
 */
function PagesRoutes() {
  return useRoutes(guardedRoutes);
}
