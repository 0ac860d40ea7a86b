import { describe, expect, it } from 'vitest';
import * as C from './constants.ts';
import { SLIDESHOW_DEFAULTS } from './slideshow.contract.ts';
import { CIRCLE_POINTS } from './template-parts.contract.ts';
import { checkImageRules, EMAIL_COLOR_KEYS, HexColorSchema, ICON_COLOR_KEYS, THEME_KEYS } from './template.contract.ts';
import { MSG } from './messages.ts';

/**
 * The numbers the documents give, written out once here so a changed constant fails against the
 * spec (the behaviour tests use the constants; docs/spec-conformance.md names both).
 */
describe('the numbers of the documents', () => {
  it('spec 1 §9: page sizes 30 and 20, power time-out 120000 ms, big-block rotate 30 s, stream idle 15 s', () => {
    expect(C.MONITOR_SIDEBAR_PAGE_SIZE).toBe(30);
    expect(C.NOTIFICATIONS_PAGE_SIZE).toBe(20);
    expect(C.CAMERA_POWER_TIMEOUT_MS).toBe(120000);
    expect(C.BIG_BLOCK_ROTATE_MS).toBe(30 * 1000);
    expect(C.LIVESTREAM_IDLE_MS).toBe(15 * 1000);
  });

  it('spec 1 §9: an event lasts 5 min to 24 h in 15-minute steps; defaults America/Winnipeg, stadiumcam, cam1', () => {
    expect(C.EVENT_MIN_MINUTES).toBe(5);
    expect(C.EVENT_MAX_MINUTES).toBe(24 * 60);
    expect(C.EVENT_TIME_STEP_MINUTES).toBe(15);
    expect(C.DEFAULT_TIMEZONE).toBe('America/Winnipeg');
    expect(C.DEFAULT_SLUG).toBe('stadiumcam');
    expect(C.DEFAULT_CAMERA).toBe('cam1');
  });

  it('spec 1 §9: face confidence 60, Exif read 100000 bytes, copy confirmation 1.5 s', () => {
    expect(C.FACE_CONFIDENCE_THRESHOLD).toBe(60);
    expect(C.EXIF_READ_BYTES).toBe(100000);
    expect(C.COPIED_MS).toBe(1.5 * 1000);
  });

  it('spec 1 §9: toasts close after 5000 ms, at most 3 visible; share toast 5 s, magicshot toast 3 s; busy after 3 snapshots', () => {
    expect(C.TOAST_MS).toBe(5000);
    expect(C.TOAST_LIMIT).toBe(3);
    expect(C.SNAPSHOT_BUSY_COUNT).toBe(3);
    expect(C.SHARE_TOAST_MS).toBe(5 * 1000);
    expect(C.MAGICSHOT_TOAST_MS).toBe(3 * 1000);
  });

  it('spec 2 §9, spec 3 §9: success modals 1.5 s or 5 s; slideshow defaults 5000 ms and 1000 ms, ease-in-out, white', () => {
    expect(C.SUCCESS_MODAL_MS).toBe(1.5 * 1000);
    expect(C.LONG_SUCCESS_MODAL_MS).toBe(5 * 1000);
    expect(SLIDESHOW_DEFAULTS).toEqual({
      transitionTime: 5000,
      transitionDuration: 1000,
      animation: 'ease-in-out',
      backgroundColor: '#ffffff',
    });
  });

  it('spec 2 §3, §5: 17 theme, 11 icon and 6 e-mail colours; 3- or 6-digit hex; image limits 150000 and 180000 bytes; a 361-point circle', () => {
    expect(THEME_KEYS).toHaveLength(17);
    expect(ICON_COLOR_KEYS).toHaveLength(11);
    expect(EMAIL_COLOR_KEYS).toHaveLength(6);
    for (const digits of [3, 6]) expect(HexColorSchema.safeParse(`#${'a'.repeat(digits)}`).success).toBe(true);
    for (const digits of [2, 4, 5, 7]) expect(HexColorSchema.safeParse(`#${'a'.repeat(digits)}`).success).toBe(false);
    const watermark = { width: 1080, height: 1080 };
    expect(checkImageRules('watermark', { ...watermark, bytes: 150000 })).toBeNull();
    expect(MSG.templateImages[checkImageRules('watermark', { ...watermark, bytes: 150001 })!]).toBe(
      MSG.templateImages.watermarkTooLarge,
    );
    const front = { width: 720, height: 1280 };
    expect(checkImageRules('frontPage', { ...front, bytes: 180000 })).toBeNull();
    expect(MSG.templateImages[checkImageRules('frontPage', { ...front, bytes: 180001 })!]).toBe(
      MSG.templateImages.frontPageTooLarge,
    );
    expect(CIRCLE_POINTS).toBe(361);
  });

  it('spec 3 §5: a user name and a password of at least 6 characters', () => {
    expect(C.USERNAME_MIN_LENGTH).toBe(6);
    expect(C.PASSWORD_MIN_LENGTH).toBe(6);
  });
});
