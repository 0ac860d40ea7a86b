import { AppError, ERR } from '../../errors.ts';

export type GeocodeResult = { latitude: number; longitude: number; displayName: string };

/** Address → centre. One implementation per service; none configured = manual lat/lon. */
export type Geocoder = { geocode: (address: string) => Promise<GeocodeResult | null> };

/** A Nominatim-compatible service (`/search?format=jsonv2&limit=1&q=`), e.g. a self-hosted Nominatim. */
export function nominatimGeocoder(baseUrl: string, fetchImpl: typeof fetch = fetch): Geocoder {
  return {
    geocode: async (address) => {
      const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('limit', '1');
      url.searchParams.set('q', address);
      let res: Response;
      try {
        res = await fetchImpl(url, {
          headers: { 'User-Agent': 'StadiumCam console', Accept: 'application/json' },
          signal: AbortSignal.timeout(8000),
        });
      } catch {
        throw new AppError(502, ERR.templateParts.geocoderNoAnswer);
      }
      if (!res.ok) throw new AppError(502, ERR.templateParts.geocoderFailed(res.status));
      const list = (await res.json().catch(() => null)) as
        { lat?: string; lon?: string; display_name?: string }[] | null;
      const hit = Array.isArray(list) ? list[0] : undefined;
      if (!hit) return null;
      const latitude = Number(hit.lat);
      const longitude = Number(hit.lon);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
      return { latitude, longitude, displayName: String(hit.display_name ?? address).slice(0, 500) };
    },
  };
}

export function geocoderFor(url: string | undefined): Geocoder | null {
  return url ? nominatimGeocoder(url) : null;
}
