import { describe, expect, it } from 'vitest';
import {
  CROSS_CHECK,
  checkRegion,
  emptyRegionForm,
  isCornerDisabled,
  linkCorners,
  withRegionType,
  type RegionForm,
} from './region-form.ts';

const corner = (row: string, seat: string, pan: string, tilt: string) => ({ row, seat, pan, tilt });
const filled = (): RegionForm => ({
  ...emptyRegionForm(),
  type: ' Box ',
  name: ' 216 ',
  corners: {
    topLeft: corner('b', '1', '-100', '50'),
    topRight: corner('', '', '', ''),
    bottomLeft: corner('', '', '', ''),
    bottomRight: corner('a', '9', '100', '-50'),
  },
});

describe('the mapping tool region form (spec 3 §4, §5)', () => {
  it('disables the corners each region type derives', () => {
    const disabled = (t: RegionForm['regionType']) =>
      (['topLeft', 'topRight', 'bottomLeft', 'bottomRight'] as const).filter((k) => isCornerDisabled(t, k));
    expect(disabled('default')).toEqual(['topRight', 'bottomLeft']);
    expect(disabled('singleRow')).toEqual(['bottomLeft', 'bottomRight']);
    expect(disabled('singleSeat')).toEqual(['topRight', 'bottomLeft', 'bottomRight']);
  });

  it('links corners: default spans the rectangle, singleRow copies the top, singleSeat the top-left', () => {
    const d = linkCorners(filled()).corners;
    expect(d.topRight).toEqual(corner('b', '9', '100', '50'));
    expect(d.bottomLeft).toEqual(corner('a', '1', '-100', '-50'));
    const row = withRegionType(
      { ...filled(), corners: { ...filled().corners, topRight: corner('b', '9', '7', '8') } },
      'singleRow',
    );
    expect(row.corners.bottomLeft).toEqual(row.corners.topLeft);
    expect(row.corners.bottomRight).toEqual(corner('b', '9', '7', '8'));
  });

  it('singleSeat defaults row and seat to 1 and copies the top-left corner everywhere', () => {
    const f = withRegionType(emptyRegionForm(), 'singleSeat');
    expect(f.corners.topLeft).toEqual(corner('1', '1', '', ''));
    for (const c of Object.values(f.corners)) expect(c).toEqual(f.corners.topLeft);
    // Editing the top-left corner of a single seat carries to the linked corners.
    const edited = linkCorners({ ...f, corners: { ...f.corners, topLeft: corner('C', '4', '5', '6') } });
    expect(edited.corners.bottomRight).toEqual(corner('C', '4', '5', '6'));
  });

  it('refuses missing or non-numeric values with the first broken rule', () => {
    expect(checkRegion({ ...filled(), name: '  ' })).toEqual({ error: 'Section name is required' });
    expect(checkRegion({ ...filled(), type: '' })).toEqual({ error: 'Section type is required' });
    const badPan = { ...filled(), corners: { ...filled().corners, topLeft: corner('b', '1', 'left', '0') } };
    expect(checkRegion(badPan)).toMatchObject({ error: expect.stringContaining('Top Left') });
    expect(checkRegion({ ...filled(), angle: 'x' })).toEqual({ error: 'Angle and zoom factor must be numbers' });
    expect(checkRegion({ ...filled(), zoomFactor: '' })).toEqual({ error: 'Angle and zoom factor must be numbers' });
  });

  it('trims name and type, lower-cases the type, upper-cases rows and sends integers', () => {
    const r = checkRegion({
      ...filled(),
      corners: { ...filled().corners, topLeft: corner(' b ', '1.7', '-100.9', '50') },
    });
    if ('error' in r) throw new Error(r.error);
    expect(r.region).toMatchObject({ name: '216', type: 'box', regionType: 'default', angle: 0, zoomFactor: 0.8 });
    expect(r.region.corners[0]).toEqual({ position: 'top_left', row: 'B', seat: 1, pan: -100, tilt: 50 });
    expect(r.region.corners.map((c) => c.position)).toEqual(['top_left', 'top_right', 'bottom_left', 'bottom_right']);
  });

  it('the form after a save on Map: default region, type section, no name, angle 0', () => {
    expect(emptyRegionForm()).toMatchObject({ regionType: 'default', type: 'section', name: '', angle: '0' });
  });

  it('cross checks top-left, bottom-right, top-right, bottom-left, top-left', () => {
    expect(CROSS_CHECK).toEqual(['topLeft', 'bottomRight', 'topRight', 'bottomLeft', 'topLeft']);
  });
});
