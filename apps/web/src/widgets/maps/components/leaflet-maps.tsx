import 'leaflet/dist/leaflet.css';
import './map-box.css';
import './map.css';
import type { MapSite } from '@forecourt/contract/fleet';
import type { MarkerColor } from '@forecourt/contract/rules';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as L from '../../../lib/leaflet.ts';
import { type CompanyMarker, clusterSize, companyMapView } from '../map-rules.ts';
import { type TerminalSource, terminalSource } from '../terminal-index-source.ts';

/** Without a tile loaded by then, the tile server is taken as unreachable. */
const TILE_TIMEOUT_MS = 8_000;
/** How long a tile server found unreachable is not asked again (this browser tab, reloads included). */
const UNREACHABLE_FOR_MS = 10 * 60_000;
const unreachableKey = (tileUrl: string) => `fc-tiles-unreachable:${tileUrl}`;
const probes = new Map<string, Promise<boolean>>();

function markUnreachable(tileUrl: string) {
  probes.set(tileUrl, Promise.resolve(false));
  try {
    sessionStorage.setItem(unreachableKey(tileUrl), String(Date.now()));
  } catch {
    /* storage unavailable: this page remembers it still */
  }
}

/**
 * Whether the tile server answers, asked once per tile URL with a single tile (zoom 0) rather than by a whole
 * layer: an unreachable server then costs one failed request, not one console error per tile of every map.
 */
export function probeTiles(tileUrl: string): Promise<boolean> {
  const known = probes.get(tileUrl);
  if (known) return known;
  let since = Number.NaN;
  try {
    since = Number(sessionStorage.getItem(unreachableKey(tileUrl)) ?? Number.NaN);
  } catch {
    /* storage unavailable */
  }
  if (Date.now() - since < UNREACHABLE_FOR_MS) return Promise.resolve(false);
  let src: string;
  try {
    src = L.template(tileUrl, { s: 'a', z: 0, x: 0, y: 0, r: '' });
  } catch {
    // A template with placeholders of its own: let the layer try.
    return Promise.resolve(true);
  }
  const probe = new Promise<boolean>((resolve) => {
    const img = new Image();
    const timer = window.setTimeout(() => done(false), TILE_TIMEOUT_MS);
    function done(ok: boolean) {
      window.clearTimeout(timer);
      img.onload = null;
      img.onerror = null;
      if (!ok) markUnreachable(tileUrl);
      resolve(ok);
    }
    img.onload = () => done(true);
    img.onerror = () => done(false);
    img.crossOrigin = 'anonymous';
    img.src = src;
  });
  probes.set(tileUrl, probe);
  return probe;
}

function attributionOf(url: string): string {
  if (url.includes('openstreetmap')) return '&copy; OpenStreetMap contributors';
  if (url.includes('arcgisonline')) return 'Imagery &copy; Esri';
  return '';
}

/**
 * A Leaflet map in a div, created once. Tiles that fail (or never arrive) are reported, so the widget
 * can say so while the markers keep showing on the plain background.
 */
export function useLeafletMap(tileUrl: string | null, options: L.MapOptions) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  /** Sets the widget's view; re-run when the box is resized until the operator moves the map. */
  const applyView = useRef<(() => void) | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is created once per mount
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const created = L.map(container, { zoomControl: true, attributionControl: true, ...options });
    created.attributionControl.setPrefix(false);
    // The current zoom, readable from outside (tests, benchmarks).
    created.on('moveend', () => {
      container.parentElement?.setAttribute('data-zoom', String(created.getZoom()));
    });
    setMap(created);
    let touched = false;
    const touch = () => {
      touched = true;
    };
    for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const) {
      container.addEventListener(type, touch, { passive: true });
    }
    const resize = new ResizeObserver(() => {
      created.invalidateSize({ pan: false });
      if (!touched) applyView.current?.();
    });
    resize.observe(container);
    return () => {
      resize.disconnect();
      for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const) {
        container.removeEventListener(type, touch);
      }
      created.remove();
      setMap(null);
    };
  }, []);

  useEffect(() => {
    if (!map) return;
    if (!tileUrl) {
      setTilesFailed(true);
      return;
    }
    setTilesFailed(false);
    let cancelled = false;
    let layer: L.TileLayer | null = null;
    let timer: number | undefined;
    void probeTiles(tileUrl).then((reachable) => {
      if (cancelled) return;
      if (!reachable) {
        setTilesFailed(true);
        return;
      }
      let loaded = false;
      const tiles = L.tileLayer(tileUrl, {
        maxZoom: 20,
        maxNativeZoom: 19,
        attribution: attributionOf(tileUrl),
        crossOrigin: true,
      });
      tiles.on('tileload', () => {
        loaded = true;
        setTilesFailed(false);
      });
      tiles.on('tileerror', () => {
        if (loaded) return;
        // Reachable a moment ago, failing now: stop asking rather than fail every tile in view.
        setTilesFailed(true);
        markUnreachable(tileUrl);
        tiles.remove();
      });
      tiles.addTo(map);
      layer = tiles;
      timer = window.setTimeout(() => {
        if (!loaded) setTilesFailed(true);
      }, TILE_TIMEOUT_MS);
    });
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      layer?.remove();
    };
  }, [map, tileUrl]);

  return { containerRef, map, tilesFailed, applyView };
}

/** A marker's target is at least 24 × 24 CSS px (WCAG 2.5.8); a pin's dot is drawn smaller inside it. */
export const TARGET_PX = 24;

/**
 * Markers closer on screen than their targets are drawn apart, on a small circle around where they are, so
 * each stays visible and can be tapped or focused on its own (terminals of one site are metres apart).
 * Only the icons move; re-run after every zoom.
 */
export function declutter(map: L.Map, markers: L.Marker[]) {
  const items = markers.map((marker) => {
    const el = marker.getElement();
    // The icon's own size (pins and clusters are drawn at it): measuring the element would force a layout
    // of the page with every marker just added (decision 0006).
    const iconSize = marker.options.icon?.options.iconSize;
    const width = Array.isArray(iconSize) ? iconSize[0] : TARGET_PX;
    const size = Math.max(TARGET_PX, width);
    return { marker, el, size, at: map.latLngToLayerPoint(marker.getLatLng()) };
  });
  const group = items.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : root(group[i] as number));
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i] as (typeof items)[number];
      const b = items[j] as (typeof items)[number];
      if (a.at.distanceTo(b.at) < (a.size + b.size) / 2) group[root(j)] = root(i);
    }
  }
  const groups = new Map<number, typeof items>();
  items.forEach((item, i) => {
    const g = groups.get(root(i)) ?? [];
    g.push(item);
    groups.set(root(i), g);
  });
  for (const members of groups.values()) {
    const alone = members.length === 1;
    const around = members.reduce((sum, m) => sum + m.size, 0);
    const radius = Math.max(...members.map((m) => m.size)) / 2 + around / (2 * Math.PI);
    const cx = members.reduce((sum, m) => sum + m.at.x, 0) / members.length;
    const cy = members.reduce((sum, m) => sum + m.at.y, 0) / members.length;
    members.forEach((m, k) => {
      if (!m.el) return;
      const angle = (2 * Math.PI * k) / members.length - Math.PI / 2;
      const dx = alone ? 0 : cx + radius * Math.cos(angle) - m.at.x;
      const dy = alone ? 0 : cy + radius * Math.sin(angle) - m.at.y;
      m.el.style.marginLeft = `${Math.round(dx - m.size / 2)}px`;
      m.el.style.marginTop = `${Math.round(dy - m.size / 2)}px`;
    });
  }
}

export function markerIcon(color: MarkerColor, size: number, extraClass = '', html = '') {
  return L.divIcon({
    className: `fc-marker ${extraClass} fc-marker-${color}`.trim(),
    html,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/** Leaflet writes a string tooltip as HTML; site titles are untrusted text, so tooltips get a text node. */
export function textNode(text: string): HTMLElement {
  const el = document.createElement('span');
  el.textContent = text;
  return el;
}

export function label(marker: L.Marker, text: string) {
  const el = marker.getElement();
  if (el) {
    el.setAttribute('aria-label', text);
    el.setAttribute('title', text);
  }
}

interface MapFrameProps {
  containerRef: React.RefObject<HTMLDivElement | null>;
  tilesFailed: boolean;
  ariaLabel: string;
  testId: string;
  markerCount: number;
}

export function MapFrame({ containerRef, tilesFailed, ariaLabel, testId, markerCount }: MapFrameProps) {
  const { t } = useTranslation();
  return (
    <div className="fc-map" data-testid={testId} data-markers={markerCount}>
      {/* Maps read left to right in every language (the console mirrors for Arabic, the map does not). */}
      <div ref={containerRef} data-label={ariaLabel} dir="ltr" style={{ height: '100%' }} />
      {tilesFailed && (
        <div className="fc-map-note" role="status" data-testid="map-tiles-unavailable">
          {t('MAP_TILES_UNAVAILABLE')}
        </div>
      )}
    </div>
  );
}

export interface CompanyMapCanvasProps {
  sites: MapSite[];
  tileUrl: string | null;
}

interface DrawnMarker {
  marker: L.Marker;
  signature: string;
}

/**
 * Road map of every terminal of a company or agent. Terminals are clustered (supercluster) so 100,000
 * of them stay smooth: only what is in view is drawn, and a cluster takes its worst terminal's colour. A large
 * fleet's cluster index is built in a worker (terminal-index-source.ts), so the map pans while it builds.
 */
export function CompanyMapCanvas({ sites, tileUrl }: CompanyMapCanvasProps) {
  const { t } = useTranslation();
  const { containerRef, map, tilesFailed, applyView } = useLeafletMap(tileUrl, { maxZoom: 19 });
  const [source, setSource] = useState<TerminalSource | null>(null);
  const [drawn, setDrawn] = useState(0);
  const viewKey = sites.map((s) => `${s.id}:${s.terminals.length}`).join('|');

  // A new index for new data (a poll that changed something); the one it replaces is freed.
  useEffect(() => {
    const next = terminalSource(sites);
    setSource(next);
    return () => next.dispose();
  }, [sites]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: set the view when the sites change, not on every poll
  useEffect(() => {
    if (!map) return;
    const view = companyMapView(sites);
    applyView.current = () => {
      if (view.kind === 'center') map.setView(view.center, view.zoom, { animate: false });
      else map.fitBounds(view.bounds, { padding: [28, 28], animate: false, maxZoom: 12 });
    };
    applyView.current();
  }, [map, viewKey]);

  const sourceRef = useRef(source);
  sourceRef.current = source;
  const drawnRef = useRef<{ layer: L.LayerGroup; onMap: Map<string, DrawnMarker> } | null>(null);

  // One marker layer per map (and language: the markers' names are translated).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new language redraws every marker
  useEffect(() => {
    if (!map) return;
    const layer = L.layerGroup().addTo(map);
    drawnRef.current = { layer, onMap: new Map() };
    return () => {
      layer.remove();
      drawnRef.current = null;
    };
  }, [map, t]);

  // Draw what is in view; new data (a poll) updates the markers that changed, in place.
  useEffect(() => {
    const drawn = drawnRef.current;
    if (!map || !drawn || !source) return;
    const { layer, onMap } = drawn;
    let cancelled = false;

    const create = (m: CompanyMarker): L.Marker => {
      if (m.kind === 'cluster') {
        const size = clusterSize(m.count);
        const text = t('MAP_CLUSTER_LABEL', {
          count: m.count,
          state: t(`MAP_STATE_${m.color.toUpperCase()}`),
        });
        const marker = L.marker([m.lat, m.lng], {
          icon: markerIcon(m.color, size, 'fc-cluster', String(m.count)),
          keyboard: true,
        });
        marker.on('click', () => {
          void sourceRef.current?.expansionZoom(m.clusterId).then(
            (expansion) => map.setView([m.lat, m.lng], Math.min(expansion, map.getMaxZoom())),
            // An index replaced meanwhile (new data): the cluster is gone, the redraw shows what replaced it.
            () => {},
          );
        });
        marker.addTo(layer);
        label(marker, text);
        return marker;
      }
      const p = m.point;
      const text = t('MAP_SITE_TERMINAL_LABEL', {
        site: p.siteTitle,
        number: p.siteNo,
        terminal: p.terminalId,
        state: t(`MAP_STATE_${p.color.toUpperCase()}`),
      });
      const marker = L.marker([m.lat, m.lng], {
        icon: markerIcon(p.color, TARGET_PX, 'fc-pin'),
        keyboard: true,
      });
      marker.bindTooltip(textNode(text));
      marker.addTo(layer);
      label(marker, text);
      return marker;
    };

    const apply = (next: CompanyMarker[]) => {
      const keep = new Set<string>();
      for (const m of next) {
        const signature =
          m.kind === 'cluster'
            ? `${m.color}/${m.count}/${m.lat.toFixed(5)},${m.lng.toFixed(5)}`
            : `${m.point.color}/${m.lat},${m.lng}/${m.point.siteTitle}`;
        const current = onMap.get(m.key);
        keep.add(m.key);
        if (current && current.signature === signature) continue;
        if (current) layer.removeLayer(current.marker);
        onMap.set(m.key, { marker: create(m), signature });
      }
      for (const [key, current] of onMap) {
        if (keep.has(key)) continue;
        layer.removeLayer(current.marker);
        onMap.delete(key);
      }
      declutter(
        map,
        [...onMap.values()].map((d) => d.marker),
      );
      setDrawn(onMap.size);
      if (typeof performance !== 'undefined' && performance.mark) performance.mark('fc:company-map:drawn');
    };

    // Only the latest question's answer is drawn: the map may have moved again while the index answered.
    let asked = 0;
    const draw = () => {
      if (!(map as unknown as { _loaded?: boolean })._loaded) return;
      const b = map.getBounds().pad(0.15);
      const bbox: [number, number, number, number] = [
        Math.max(-180, b.getWest()),
        Math.max(-85, b.getSouth()),
        Math.min(180, b.getEast()),
        Math.min(85, b.getNorth()),
      ];
      const question = ++asked;
      source.markers(bbox, map.getZoom()).then(
        (next) => {
          if (!cancelled && question === asked) apply(next);
        },
        () => {},
      );
    };

    // The first draw in a task of its own: the map's creation and view (a layout) and then every marker in
    // one go held a phone's main thread for 120 ms and more (decision 0006).
    const first = window.setTimeout(draw, 0);
    map.on('moveend', draw);
    return () => {
      cancelled = true;
      window.clearTimeout(first);
      map.off('moveend', draw);
    };
  }, [map, source, t]);

  return (
    <MapFrame
      containerRef={containerRef}
      tilesFailed={tilesFailed}
      ariaLabel={t('COMPANY_MAP')}
      testId="company-map-canvas"
      markerCount={drawn}
    />
  );
}
