import { DEFAULT_COLORS, defaultLanguageTable } from '@stadiumcam/contract';

/** The configuration a fresh master template starts with (spec 2 §3 defaults). */
export function defaultTemplateConfig(): Record<string, unknown> {
  return {
    overlays: [],
    availableLanguages: ['english'],
    // The attendee app's English texts are the initial table (DESIGN §10).
    languages: defaultLanguageTable(),
    defaultLanguage: 'english',
    images: {},
    venueType: 'stadium',
    ...structuredClone(DEFAULT_COLORS),
    seatType: [],
    blockedSeats: [],
    screenshots: [],
    screenshotsHash: '',
    triviaEnabled: false,
    slideshow: { transitionTime: 5000, transitionDuration: 1000, animation: 'ease-in-out', backgroundColor: '#ffffff' },
    share: [
      { platform: 'download', enabled: true },
      { platform: 'email', enabled: true },
      { platform: 'share', enabled: true },
      { platform: 'print', enabled: false },
    ],
    geofence: { enabled: false, address: '', radius: 0, latitude: 0, longitude: 0, locations: [] },
  };
}
