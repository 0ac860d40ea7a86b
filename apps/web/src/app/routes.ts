import { P, type Permission } from '@stadiumcam/contract/lite';

/** The route table of spec 1 §2 / spec 3 §2 with the permission each needs (empty = none). */
export type ShellRoute = { path: string; needs: Permission[]; or?: boolean };

export const TEMPLATE_PAGES = [
  { path: 'template/Languages', label: 'Languages', needs: [P.TEMPLATE] },
  { path: 'template/colors', label: 'Colors', needs: [P.TEMPLATE] },
  { path: 'template/overlays', label: 'Overlays', needs: [P.OVERLAYS, P.TEMPLATE], or: true },
  { path: 'template/graphics', label: 'Graphics', needs: [P.GRAPHICS, P.TEMPLATE], or: true },
  { path: 'template/share', label: 'Share', needs: [P.TEMPLATE] },
  { path: 'template/seatOptions', label: 'Seat Options', needs: [P.TEMPLATE] },
  { path: 'template/geofence', label: 'Geofence', needs: [P.TEMPLATE] },
  { path: 'template/trivia', label: 'Trivia', needs: [P.TRIVIA, P.TEMPLATE], or: true },
  { path: 'template/slideshow', label: 'Slideshow', needs: [P.SLIDESHOW, P.TEMPLATE], or: true },
  { path: 'template/export', label: 'Export/Import', needs: [] },
] satisfies (ShellRoute & { label: string })[];
