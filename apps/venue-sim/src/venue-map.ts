import type { CameraMapFile } from '@stadiumcam/contract';
import { ROW_LETTERS, SECTIONS, viewOfSeat } from './bowl.ts';

/*
 * The simulated bowl described as a technician would: one map file per camera (each camera
 * covers a run of neighbouring sections, one region per section spanning its rows and seats)
 * and the row dictionary. The simulator uploads them through the config-file API.
 */

export const SEATS_PER_ROW = 20;
/** Zoom a camera uses for every seat of the bowl. */
export const SEAT_ZOOM = 0.8;

/** row_dict.txt: the bowl's rows from the field up. */
export function venueRowDict(): string {
  return `# Rows from the field up\n${ROW_LETTERS.join('\n')}\n`;
}

/** The sections camera `index` (0-based) of `count` covers: neighbouring runs, all sections covered. */
export function sectionsOfCamera(index: number, count: number): string[] {
  const per = SECTIONS.length / count;
  return SECTIONS.slice(Math.round(index * per), Math.round((index + 1) * per));
}

/** The map file of camera `cam<number>`; corners relative to the reference (the centre of its run). */
export function venueMapFile(number: number, count: number): CameraMapFile {
  const sections = sectionsOfCamera(number - 1, count);
  const top = ROW_LETTERS.at(-1)!;
  const bottom = ROW_LETTERS[0];
  const views = sections.flatMap((section) =>
    [top, bottom].map((row) => viewOfSeat({ section, row, seat: '1' }, SEAT_ZOOM)!),
  );
  const ref = {
    pan: Math.round(views.reduce((a, v) => a + v.pan, 0) / Math.max(1, views.length)),
    tilt: 0,
    zoom: 0,
  };
  const corner = (position: 'top_left' | 'top_right' | 'bottom_left' | 'bottom_right', section: string) => {
    const row = position.startsWith('top') ? top : bottom;
    const seat = position.endsWith('left') ? 1 : SEATS_PER_ROW;
    const v = viewOfSeat({ section, row, seat: String(seat) }, SEAT_ZOOM)!;
    return { position, row, seat, pan: v.pan - ref.pan, tilt: v.tilt - ref.tilt };
  };
  return {
    camera: number,
    ptu_model: 'SIM-PTU-1',
    operators: ['venue-sim'],
    section_count: sections.length,
    ref_point: ref,
    sections: sections.map((name) => ({
      name,
      type: 'section',
      regions: [
        {
          corners: [
            corner('top_left', name),
            corner('top_right', name),
            corner('bottom_left', name),
            corner('bottom_right', name),
          ],
          zoom_factor: SEAT_ZOOM,
          angle: 0,
          region_type: 'default',
        },
      ],
    })),
  };
}
