import type { SiteMapTerminal } from '@forecourt/contract/fleet';
import { AERIAL_MAP_ZOOM } from '@forecourt/contract/rules';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import * as L from '../../../lib/leaflet.ts';
import { aerialMapView, aerialMarkers } from '../map-rules.ts';
import {
  declutter,
  label,
  MapFrame,
  markerIcon,
  TARGET_PX,
  textNode,
  useLeafletMap,
} from './leaflet-maps.tsx';

// The site dashboard's aerial map, a module of its own: the agent and company dashboards load only the road map.

export interface AerialMapCanvasProps {
  terminals: SiteMapTerminal[];
  tileUrl: string | null;
}

/** Satellite view of a site's terminals at zoom 18; markers green on, red off, yellow otherwise. */
export function AerialMapCanvas({ terminals, tileUrl }: AerialMapCanvasProps) {
  const { t } = useTranslation();
  const { containerRef, map, tilesFailed, applyView } = useLeafletMap(tileUrl, { maxZoom: 20 });
  const markers = useMemo(() => aerialMarkers(terminals), [terminals]);
  const placeKey = markers.map((m) => `${m.id}@${m.lat},${m.lng}`).join('|');

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-centre only when the set of places changes, not on every poll
  useEffect(() => {
    if (!map) return;
    const view = aerialMapView(terminals);
    applyView.current = () => map.setView(view.center, AERIAL_MAP_ZOOM, { animate: false });
    applyView.current();
  }, [map, placeKey]);

  useEffect(() => {
    if (!map) return;
    const layer = L.layerGroup().addTo(map);
    const drawn: L.Marker[] = [];
    for (const m of markers) {
      const text = t('MAP_TERMINAL_LABEL', {
        terminal: m.terminalId,
        state: t(`MAP_STATE_${m.color.toUpperCase()}`),
      });
      const marker = L.marker([m.lat, m.lng], {
        icon: markerIcon(m.color, TARGET_PX, 'fc-pin fc-pin-18'),
        keyboard: true,
      });
      marker.bindTooltip(textNode(text));
      marker.addTo(layer);
      label(marker, text);
      drawn.push(marker);
    }
    const relayout = () => declutter(map, drawn);
    relayout();
    map.on('zoomend', relayout);
    return () => {
      map.off('zoomend', relayout);
      layer.remove();
    };
  }, [map, markers, t]);

  return (
    <MapFrame
      containerRef={containerRef}
      tilesFailed={tilesFailed}
      ariaLabel={t('AERIAL_MAP')}
      testId="aerial-map-canvas"
      markerCount={markers.length}
    />
  );
}
