import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { mapTerminalQueries } from '../../../lib/api/map-terminals.ts';
import type { FleetScope, SiteScope } from '../../../lib/scope.ts';
import { useTileUrls } from '../api/get-web-config.ts';

// Leaflet and its stylesheet load with the first map widget, not with the page: fetched as the widget
// mounts, alongside its data.
const loadLeafletMaps = () => import('./leaflet-maps.tsx');
const CompanyMapCanvas = lazy(() => loadLeafletMaps().then((m) => ({ default: m.CompanyMapCanvas })));
const AerialMapCanvas = lazy(() => loadLeafletMaps().then((m) => ({ default: m.AerialMapCanvas })));
function usePreloadLeaflet() {
  useEffect(() => {
    void loadLeafletMaps();
  }, []);
}

/** Box height of the map widgets. */
export const MAP_HEIGHT = 420;

function MapLoader() {
  return (
    <Center h="100%">
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
  usePreloadLeaflet();
  const query = useQuery(mapTerminalQueries.fleet(scope));
  const tiles = useTileUrls();
  return (
    <WidgetCard
      title={t('COMPANY_MAP')}
      info={{ title: t('COMPANY_MAP'), description: t('COMPANY_MAP_INFO') }}
      height={MAP_HEIGHT}
      {...widgetQueryState(query)}
      loading={query.isPending || !tiles.settled}
      data-testid="company-map"
    >
      {query.data && (
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
  usePreloadLeaflet();
  const query = useQuery(mapTerminalQueries.site(scope));
  const tiles = useTileUrls();
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
      {query.data && (
        <Suspense fallback={<MapLoader />}>
          <AerialMapCanvas terminals={query.data} tileUrl={tiles.satellite} />
        </Suspense>
      )}
    </WidgetCard>
  );
}
