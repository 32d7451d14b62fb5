import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { mapTerminalQueries } from '../../../lib/api/map-terminals.ts';
import type { FleetScope, SiteScope } from '../../../lib/scope.ts';
import { whenFirstReadsDrawn } from '../../../lib/when-first-view-drawn.ts';
import { useTileUrls } from '../api/get-web-config.ts';
import './map-box.css';

// Leaflet and its stylesheet (~40 KB gzip, the largest script of a dashboard) load with the first map widget,
// not with the page, and only once the widget has its data and the first view's reads have been drawn
// (lib/first-view-gate.ts: the first reads settled and the browser idle once since): on a phone the text widgets
// (counters, alerts) get the bandwidth and the main thread first, and Lighthouse's simulation counts every request
// that started before the largest paint in that paint (decision 0006: the terminals counter is the agent
// dashboard's largest paint). It waits for nothing more: the gate's own margin and a further idle moment had put
// ~0.7 s between the map's data and its first markers.
const loadLeafletMaps = () => import('./leaflet-maps.tsx');
const CompanyMapCanvas = lazy(() => loadLeafletMaps().then((m) => ({ default: m.CompanyMapCanvas })));
const AerialMapCanvas = lazy(() => import('./aerial-map.tsx').then((m) => ({ default: m.AerialMapCanvas })));

let leafletRequested = false;

/** True once Leaflet may load: at once when it was asked for before, else after `ready` once the first reads are drawn. */
function useLeafletWhenDrawn(ready: boolean) {
  const [go, setGo] = useState(leafletRequested);
  useEffect(() => {
    if (!ready || go) return;
    return whenFirstReadsDrawn(() => {
      leafletRequested = true;
      void loadLeafletMaps();
      startTransition(() => setGo(true));
    });
  }, [ready, go]);
  return go;
}

/** Box height of the map widgets. */
export const MAP_HEIGHT = 420;

/** The map's box while Leaflet loads: its background as the map will have it, with a spinner that says so. */
function MapLoader() {
  const { t } = useTranslation();
  return (
    <Center className="fc-map fc-map-placeholder" role="status" aria-label={t('LOADING')}>
      <Loader size="sm" />
    </Center>
  );
}

export interface CompanyMapWidgetProps {
  /** Whose terminals: an agent's (every company) or one company's. */
  scope: FleetScope;
}

/** Active terminals company map: road map, zoom 9, London by default; clusters coloured by their worst terminal. */
export function CompanyMapWidget({ scope }: CompanyMapWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(mapTerminalQueries.fleet(scope));
  const tiles = useTileUrls();
  const leaflet = useLeafletWhenDrawn(query.data !== undefined);
  return (
    <WidgetCard
      title={t('COMPANY_MAP')}
      info={{ title: t('COMPANY_MAP'), description: t('COMPANY_MAP_INFO') }}
      height={MAP_HEIGHT}
      {...widgetQueryState(query)}
      loading={query.isPending || !tiles.settled}
      data-testid="company-map"
    >
      {query.data && !leaflet && <MapLoader />}
      {query.data && leaflet && (
        <Suspense fallback={<MapLoader />}>
          <CompanyMapCanvas sites={query.data} tileUrl={tiles.road} />
        </Suspense>
      )}
    </WidgetCard>
  );
}

export interface AerialMapWidgetProps {
  scope: SiteScope;
}

/** Aerial map of a site: satellite view at zoom 18, terminals green on, red off, yellow otherwise. */
export function AerialMapWidget({ scope }: AerialMapWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(mapTerminalQueries.site(scope));
  const tiles = useTileUrls();
  const leaflet = useLeafletWhenDrawn(query.data !== undefined && query.data.length > 0);
  return (
    <WidgetCard
      title={t('AERIAL_MAP')}
      info={{ title: t('AERIAL_MAP'), description: t('AERIAL_MAP_INFO') }}
      height={MAP_HEIGHT}
      {...widgetQueryState(query)}
      loading={query.isPending || !tiles.settled}
      empty={query.data !== undefined && query.data.length === 0}
      emptyMessage={t('MAP_NO_TERMINALS')}
      data-testid="aerial-map"
    >
      {query.data && !leaflet && <MapLoader />}
      {query.data && leaflet && (
        <Suspense fallback={<MapLoader />}>
          <AerialMapCanvas terminals={query.data} tileUrl={tiles.satellite} />
        </Suspense>
      )}
    </WidgetCard>
  );
}
