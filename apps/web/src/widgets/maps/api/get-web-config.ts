import { useQuery } from '@tanstack/react-query';
import { configQueries } from '../../../lib/api/config.ts';

/**
 * Tile URL templates; null while loading, when the settings cannot be read, or when the server could not reach
 * that tile server (then no tile is ever requested: markers still show, and the map says the tiles are missing).
 */
export function useTileUrls() {
  const query = useQuery(configQueries.web());
  const data = query.data;
  return {
    road: data?.tileRoadReachable ? data.tileUrlRoad : null,
    satellite: data?.tileSatelliteReachable ? data.tileUrlSatellite : null,
    settled: !query.isPending,
  };
}
