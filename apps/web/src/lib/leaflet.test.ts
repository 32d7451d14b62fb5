import { afterEach, describe, expect, it } from 'vitest';
import * as L from './leaflet.ts';

/** A map in a sized box (jsdom lays nothing out: Leaflet reads clientWidth/clientHeight). */
function box() {
  const el = document.createElement('div');
  Object.defineProperty(el, 'clientWidth', { value: 400 });
  Object.defineProperty(el, 'clientHeight', { value: 300 });
  document.body.append(el);
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe("the console's Leaflet (its source modules, not its bundle)", () => {
  it('creates a map with the interaction handlers and the zoom and attribution controls registered', () => {
    const map = L.map(box(), { zoomControl: true, attributionControl: true }).setView([51.5, -0.12], 10);
    for (const handler of [
      'dragging',
      'touchZoom',
      'doubleClickZoom',
      'scrollWheelZoom',
      'boxZoom',
      'keyboard',
    ]) {
      expect(map[handler as keyof L.Map], handler).toBeTruthy();
    }
    expect(map.zoomControl).toBeTruthy();
    expect(map.attributionControl).toBeTruthy();
    expect(map.getContainer().querySelector('.leaflet-control-zoom-in')).not.toBeNull();
    expect(map.getContainer().querySelector('.leaflet-control-attribution')).not.toBeNull();
    map.fitBounds(
      [
        [51, -1],
        [52, 1],
      ],
      { animate: false },
    );
    expect(map.getZoom()).toBeGreaterThan(0);
    expect(map.getBounds().pad(0.15).contains([51.5, 0])).toBe(true);
    map.remove();
  });

  it('draws markers with div icons in a layer group, with tooltips, and a tile layer', () => {
    const map = L.map(box()).setView([51.5, -0.12], 10);
    const group = L.layerGroup().addTo(map);
    const marker = L.marker([51.5, -0.12], { icon: L.divIcon({ className: 'pin', html: '<b>1</b>' }) });
    marker.bindTooltip('Site 1').addTo(group);
    expect(marker.getElement()?.classList.contains('pin')).toBe(true);
    marker.openTooltip();
    expect(map.getContainer().querySelector('.leaflet-tooltip')?.textContent).toBe('Site 1');
    group.removeLayer(marker);
    expect(map.getContainer().querySelector('.pin')).toBeNull();
    L.tileLayer('https://tiles.invalid/{z}/{x}/{y}.png').addTo(map);
    expect(map.getContainer().querySelector('.leaflet-tile-pane .leaflet-layer')).not.toBeNull();
    map.remove();
  });

  it('fills tile URL templates', () => {
    expect(L.template('https://{s}.tiles/{z}/{x}/{y}.png', { s: 'a', z: 0, x: 1, y: 2 })).toBe(
      'https://a.tiles/0/1/2.png',
    );
  });
});
