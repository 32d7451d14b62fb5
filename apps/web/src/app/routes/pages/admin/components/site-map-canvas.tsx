import 'leaflet/dist/leaflet.css';
import '../../../../../widgets/maps/components/map-box.css';
import '../../../../../widgets/maps/components/map.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as L from '../../../../../lib/leaflet.ts';

export interface SiteMapCanvasProps {
  /** The site's position, or null while none is chosen. */
  position: { lat: number; lng: number } | null;
  /** Called with the clicked point, rounded to 6 decimals (about 10 cm). */
  onPick: (position: { lat: number; lng: number }) => void;
  /** Tile URL template; without one the map shows a plain background (clicks still work). */
  tileUrl: string | null;
}

/** Where the picker opens without a position: London, as the fleet map does. */
const DEFAULT_CENTER: L.LatLngTuple = [51.5074, -0.1278];
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** A Leaflet map that places a site: a click sets the position, a marker shows it. */
export function SiteMapCanvas({ position, onPick, tileUrl }: SiteMapCanvasProps) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is created once per mount
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const created = L.map(container, { zoomControl: true, attributionControl: false }).setView(
      position ? [position.lat, position.lng] : DEFAULT_CENTER,
      position ? 13 : 9,
    );
    created.on('click', (e: L.LeafletMouseEvent) => {
      const wrapped = e.latlng.wrap();
      onPickRef.current({ lat: round6(wrapped.lat), lng: round6(wrapped.lng) });
    });
    const resize = new ResizeObserver(() => created.invalidateSize({ pan: false }));
    resize.observe(container);
    setMap(created);
    return () => {
      resize.disconnect();
      created.remove();
      setMap(null);
    };
  }, []);

  useEffect(() => {
    if (!map || !tileUrl) return;
    const layer = L.tileLayer(tileUrl, { maxZoom: 19, crossOrigin: true }).addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, tileUrl]);

  const lat = position?.lat;
  const lng = position?.lng;
  useEffect(() => {
    if (!map || lat === undefined || lng === undefined) return;
    const icon = L.divIcon({
      className: 'fc-marker fc-pin fc-marker-green',
      iconSize: [18, 18],
      iconAnchor: [9, 9],
    });
    const marker = L.marker([lat, lng], { icon, keyboard: false, interactive: false }).addTo(map);
    const el = marker.getElement();
    el?.setAttribute('data-testid', 'site-position-marker');
    if (!map.getBounds().contains([lat, lng])) map.panTo([lat, lng], { animate: false });
    return () => {
      marker.remove();
    };
  }, [map, lat, lng]);

  return (
    <div className="fc-map" data-testid="site-map-picker" style={{ height: 260 }}>
      <div
        ref={containerRef}
        role="application"
        aria-label={t('ADMIN_SITE_MAP_LABEL')}
        style={{ height: '100%', cursor: 'crosshair' }}
      />
    </div>
  );
}

export default SiteMapCanvas;
