import sharp from 'sharp';
import { CIRCLE_POINTS, MAP_HEIGHT, MAP_SCALE, MAP_WIDTH } from '@stadiumcam/contract';

const EARTH_KM = 6371.0088;
const rad = Math.PI / 180;

/** The geofence outline: 361 points (0°..360°, closed) at `radiusKm` from the centre, on the sphere. */
export function circlePoints(latitude: number, longitude: number, radiusKm: number): [number, number][] {
  const d = radiusKm / EARTH_KM;
  const lat1 = latitude * rad;
  const lon1 = longitude * rad;
  const out: [number, number][] = [];
  for (let i = 0; i < CIRCLE_POINTS; i++) {
    const b = i * rad;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
    const lon2 =
      lon1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    out.push([lat2 / rad, ((lon2 / rad + 540) % 360) - 180]);
  }
  return out;
}

/** A "nice" step (1, 2 or 5 × 10^n) near `x`. */
function niceStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/**
 * The geofence map (PNG, 640 px wide at scale 2): a locally drawn background (street grid,
 * graticule, scale bar; no outside tile service), the 361-point circle and the centre pin.
 */
export async function renderGeofenceMap(latitude: number, longitude: number, radiusKm: number): Promise<Buffer> {
  const W = MAP_WIDTH * MAP_SCALE;
  const H = MAP_HEIGHT * MAP_SCALE;
  const viewKm = Math.max(radiusKm, 0.5);
  const pxPerKm = (0.38 * H) / viewKm;
  const kmPerDegLat = EARTH_KM * rad;
  const kmPerDegLon = kmPerDegLat * Math.max(0.01, Math.cos(latitude * rad));
  const x = (lon: number) => W / 2 + (((lon - longitude + 540) % 360) - 180) * kmPerDegLon * pxPerKm;
  const y = (lat: number) => H / 2 - (lat - latitude) * kmPerDegLat * pxPerKm;

  // Streets: a grid at a nice spacing in km, every fifth one a main road.
  const streetKm = niceStep(viewKm / 6);
  const streets: string[] = [];
  const halfW = W / 2 / pxPerKm;
  const halfH = H / 2 / pxPerKm;
  for (let i = Math.floor(-halfW / streetKm); i <= Math.ceil(halfW / streetKm); i++) {
    const px = W / 2 + i * streetKm * pxPerKm;
    streets.push(`<line x1="${px}" y1="0" x2="${px}" y2="${H}" class="${i % 5 === 0 ? 'main' : 'street'}"/>`);
  }
  for (let i = Math.floor(-halfH / streetKm); i <= Math.ceil(halfH / streetKm); i++) {
    const py = H / 2 + i * streetKm * pxPerKm;
    streets.push(`<line x1="0" y1="${py}" x2="${W}" y2="${py}" class="${i % 5 === 0 ? 'main' : 'street'}"/>`);
  }
  const path = circlePoints(latitude, longitude, radiusKm)
    .map(([lat, lon], i) => `${i ? 'L' : 'M'}${x(lon).toFixed(1)},${y(lat).toFixed(1)}`)
    .join(' ');
  const barKm = niceStep(viewKm / 2);
  const barPx = barKm * pxPerKm;
  const label = (n: number, pos: string, neg: string) => `${Math.abs(n).toFixed(4)}° ${n >= 0 ? pos : neg}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <style>
    .street{stroke:#ffffff;stroke-width:${2 * MAP_SCALE}}
    .main{stroke:#fcd581;stroke-width:${5 * MAP_SCALE}}
    text{font-family:sans-serif;fill:#343a40}
  </style>
  <rect width="${W}" height="${H}" fill="#eae6df"/>
  <rect x="${W * 0.08}" y="${H * 0.62}" width="${W * 0.16}" height="${H * 0.2}" fill="#c8e6c9"/>
  <rect x="${W * 0.74}" y="${H * 0.12}" width="${W * 0.14}" height="${H * 0.16}" fill="#c8e6c9"/>
  ${streets.join('')}
  ${radiusKm > 0 ? `<path d="${path}" fill="rgba(34,139,230,0.18)" stroke="#1c7ed6" stroke-width="${3 * MAP_SCALE}"/>` : ''}
  <circle cx="${W / 2}" cy="${H / 2}" r="${7 * MAP_SCALE}" fill="#e03131" stroke="#fff" stroke-width="${2 * MAP_SCALE}"/>
  <rect x="${16 * MAP_SCALE}" y="${H - 40 * MAP_SCALE}" width="${barPx}" height="${5 * MAP_SCALE}" fill="#343a40"/>
  <text x="${16 * MAP_SCALE}" y="${H - 46 * MAP_SCALE}" font-size="${12 * MAP_SCALE}">${barKm} km</text>
  <text x="${W - 12 * MAP_SCALE}" y="${H - 14 * MAP_SCALE}" font-size="${11 * MAP_SCALE}" text-anchor="end">${label(latitude, 'N', 'S')}, ${label(longitude, 'E', 'W')} · radius ${radiusKm} km</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}
