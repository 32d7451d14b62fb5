/**
 * The parts of Leaflet the console's maps use, imported from Leaflet's own ES module sources (which its package
 * ships under `src/`) instead of its whole bundle: the map with its interaction handlers and zoom and attribution
 * controls, tile layers, markers with `divIcon`s, layer groups and tooltips. Left out: vector layers and their
 * SVG and Canvas renderers, popups, GeoJSON, image, video and SVG overlays, the layers and scale controls, WMS and
 * the projections other than Web Mercator, about half of Leaflet's bytes (docs/decisions/0006).
 *
 * Leaflet's modules register features on the map class when they are evaluated (`Map.addInitHook`,
 * `Map.include`), which is why the handlers and controls are imported for their effect. The values are typed with
 * Leaflet's own declarations (`@types/leaflet`); `leaflet.test.ts` checks that the pieces the maps call exist and
 * work together. Use this module, never `leaflet` itself, for values and types (Biome's restricted imports).
 */
// biome-ignore lint/style/noRestrictedImports: this module is the one place that names Leaflet's package.
import type * as Leaflet from 'leaflet';
import 'leaflet/src/control/Control.Attribution.js';
import 'leaflet/src/control/Control.Zoom.js';
import 'leaflet/src/layer/Tooltip.js';
import 'leaflet/src/map/handler/Map.BoxZoom.js';
import 'leaflet/src/map/handler/Map.DoubleClickZoom.js';
import 'leaflet/src/map/handler/Map.Drag.js';
import 'leaflet/src/map/handler/Map.Keyboard.js';
import 'leaflet/src/map/handler/Map.ScrollWheelZoom.js';
import 'leaflet/src/map/handler/Map.TapHold.js';
import 'leaflet/src/map/handler/Map.TouchZoom.js';
import { template as templateOf } from 'leaflet/src/core/Util.js';
import { layerGroup as layerGroupOf } from 'leaflet/src/layer/LayerGroup.js';
import { divIcon as divIconOf } from 'leaflet/src/layer/marker/DivIcon.js';
import { marker as markerOf } from 'leaflet/src/layer/marker/Marker.js';
import { tileLayer as tileLayerOf } from 'leaflet/src/layer/tile/TileLayer.js';
import { createMap } from 'leaflet/src/map/Map.js';

export type {
  LatLngTuple,
  LayerGroup,
  LeafletMouseEvent,
  Map,
  MapOptions,
  Marker,
  TileLayer,
  // biome-ignore lint/style/noRestrictedImports: Leaflet's own declarations of the pieces exported here.
} from 'leaflet';

export const map: typeof Leaflet.map = createMap;
export const tileLayer: typeof Leaflet.tileLayer = tileLayerOf;
export const marker: typeof Leaflet.marker = markerOf;
export const divIcon: typeof Leaflet.divIcon = divIconOf;
export const layerGroup: typeof Leaflet.layerGroup = layerGroupOf;
export const template: typeof Leaflet.Util.template = templateOf;
