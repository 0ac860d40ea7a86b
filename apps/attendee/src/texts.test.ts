import { describe, expect, it } from 'vitest';
import { ATTENDEE_TEXTS } from '@stadiumcam/contract/attendee-texts';
import { pageViewBody } from './api.ts';
import { languageName, languageTag, makeT } from './texts.tsx';

/** An event's language table as the app receives it (texts only, per key). */
const event = (languages: Record<string, { texts: Record<string, string> }>, defaultLanguage = 'english') => ({
  languages,
  defaultLanguage,
});

describe('attendee app texts: the chosen language wins', () => {
  it("shows the chosen language's text over the default language and the app's English", () => {
    const ev = event({
      'landing.start': { texts: { english: 'Go on', french: 'Commencer', spanish: 'Empezar' } },
    });
    expect(makeT(ev, 'french')('landing.start')).toBe('Commencer');
    expect(makeT(ev, 'spanish')('landing.start')).toBe('Empezar');
    expect(makeT(ev, 'english')('landing.start')).toBe('Go on');
  });

  it("falls back to the event's default language, then to the app's English default", () => {
    const ev = event(
      {
        'landing.start': { texts: { english: 'Start here', french: 'Allez' } },
        // An empty cell counts as missing.
        'common.back': { texts: { english: '', french: '' } },
      },
      'french',
    );
    // German has no text for the row: the default language (French) answers.
    expect(makeT(ev, 'german')('landing.start')).toBe('Allez');
    // A row neither language has: the app's own English default.
    expect(makeT(ev, 'german')('common.back')).toBe(ATTENDEE_TEXTS['common.back'].english);
    expect(makeT(ev, 'french')('album.title')).toBe(ATTENDEE_TEXTS['album.title'].english);
    // Before the event has loaded: the English defaults.
    expect(makeT(undefined, 'french')('landing.start')).toBe(ATTENDEE_TEXTS['landing.start'].english);
  });

  it('fills the placeholders of the chosen text', () => {
    const ev = event({
      'queue.position': { texts: { english: 'You are #{position}', french: 'Vous êtes n° {position}' } },
    });
    expect(makeT(ev, 'french')('queue.position', { position: 4 })).toBe('Vous êtes n° 4');
    expect(makeT(ev, 'english')('queue.position', { position: 7 })).toBe('You are #7');
  });
});

describe('attendee app page views: the report body', () => {
  it('a phone: mobile, its language tag, the locale region as country, the screen size', () => {
    expect(
      pageViewBody('stadiumcam-2026-11-26', 'welcome', {
        language: 'fr-CA',
        width: 390,
        height: 844,
        coarsePointer: true,
      }),
    ).toEqual({
      slugDate: 'stadiumcam-2026-11-26',
      page: 'welcome',
      device: 'mobile',
      language: 'fr-CA',
      country: 'CA',
      screen: { width: 390, height: 844 },
    });
  });

  it('a tablet and a desktop; no country when the locale names none (or a region that is not a country)', () => {
    const tablet = pageViewBody('e', 'seat', { language: 'en', width: 1024, height: 768, coarsePointer: true });
    expect(tablet).toEqual({
      slugDate: 'e',
      page: 'seat',
      device: 'tablet',
      language: 'en',
      screen: { width: 1024, height: 768 },
    });
    const desktop = pageViewBody('e', 'album', { language: 'es-419', width: 1920, height: 1080, coarsePointer: false });
    expect(desktop.device).toBe('desktop');
    expect(desktop).not.toHaveProperty('country');
  });

  it('a language tag the server would refuse is sent as und', () => {
    expect(pageViewBody('e', 'queue', { language: '', width: 1, height: 1, coarsePointer: true }).language).toBe('und');
    expect(
      pageViewBody('e', 'queue', { language: 'x_bad tag', width: 1, height: 1, coarsePointer: true }).language,
    ).toBe('und');
  });
});

describe('attendee app: the language as a BCP 47 tag for <html lang>', () => {
  it('matches a language name in English or in itself, keeps a code, and says und for anything else', () => {
    const names = ['english', 'French', 'español', 'Deutsch', 'chinese_traditional', 'Norwegian Bokmål', 'farsi'];
    expect(names.map(languageTag)).toEqual(['en', 'fr', 'es', 'de', 'zh-Hant', 'nb', 'fa']);
    expect(['fr', 'pt-br', 'EN', 'zh-hant'].map(languageTag)).toEqual(['fr', 'pt-BR', 'en', 'zh-Hant']);
    expect(['Fr ench', 'klingon', '', '12'].map(languageTag)).toEqual(['und', 'und', 'und', 'und']);
  });

  it('names a language in its own words for the choice, else as the table names it', () => {
    expect(['french', 'spanish', 'en', 'klingon'].map(languageName)).toEqual([
      'Français',
      'Español',
      'English',
      'Klingon',
    ]);
  });
});
