import { expect, it } from 'vitest';
import { can, P } from '@stadiumcam/contract/lite';
import { TEMPLATE_PAGES } from './routes.ts';

const page = (path: string) => TEMPLATE_PAGES.find((t) => `/${t.path}` === path)!;

it('template pages: Languages, colors, share, geofence and seatOptions need TEMPLATE; trivia, graphics, overlays and slideshow their own permission or TEMPLATE', () => {
  for (const path of [
    '/template/Languages',
    '/template/colors',
    '/template/share',
    '/template/geofence',
    '/template/seatOptions',
  ]) {
    expect(page(path), path).toMatchObject({ needs: [P.TEMPLATE] });
    expect(can([P.TEMPLATE], page(path).needs, page(path)), path).toBe(true);
    expect(can([P.TRIVIA, P.GRAPHICS, P.OVERLAYS, P.SLIDESHOW], page(path).needs, page(path)), path).toBe(false);
  }
  const own = { trivia: P.TRIVIA, graphics: P.GRAPHICS, overlays: P.OVERLAYS, slideshow: P.SLIDESHOW };
  for (const [name, permission] of Object.entries(own)) {
    const gate = page(`/template/${name}`);
    expect(gate, name).toMatchObject({ needs: [permission, P.TEMPLATE], or: true });
    expect(can([permission], gate.needs, gate), name).toBe(true);
    expect(can([P.TEMPLATE], gate.needs, gate), name).toBe(true);
    expect(can([P.MONITOR_READ], gate.needs, gate), name).toBe(false);
  }
});
