import { describe, expect, it } from 'vitest';
import { makeFace } from '../../test/factories.ts';
import { shareColumns, summariseFaces } from './snapshots.faces.ts';

/** A confident face with one strong emotion and a weak calm. */
const face = (gender: 'Female' | 'Male', low: number, high: number, emotion: string) =>
  makeFace({
    gender: [gender, 99],
    age: [low, high],
    emotions: [
      [emotion.toUpperCase(), 92],
      ['CALM', 20],
    ],
  });

describe('face summary', () => {
  it('keeps emotions above the confidence threshold and both genders', () => {
    expect(summariseFaces([face('Female', 20, 28, 'happy'), face('Male', 30, 38, 'sad')])).toEqual({
      groupSize: 2,
      ageMin: 20,
      ageMax: 38,
      genders: 'Both',
      emotions: ['happy', 'sad'],
    });
    // Analysed with nobody in it: group size 0; no face data at all: unknown.
    expect(summariseFaces([])).toMatchObject({ groupSize: 0, genders: null, emotions: [] });
    expect(summariseFaces(null)).toMatchObject({ groupSize: null, emotions: [] });
    // A gender below the confidence threshold does not count.
    const unsure = { ...face('Male', 30, 38, 'calm'), Gender: { Value: 'Male', Confidence: 55 } };
    expect(summariseFaces([face('Female', 20, 28, 'happy'), unsure]).genders).toBe('Female');
    // The threshold is 60 and a trait must be above it: 60 is out, 61 in (spec 1 §9).
    const male = (confidence: number) => ({ ...unsure, Gender: { Value: 'Male', Confidence: confidence } });
    expect(summariseFaces([face('Female', 20, 28, 'happy'), male(60)]).genders).toBe('Female');
    expect(summariseFaces([face('Female', 20, 28, 'happy'), male(61)]).genders).toBe('Both');
  });
});

describe('share columns', () => {
  it('counts every share and lists each platform once, sorted', () => {
    const share = (socialSource: string) => ({ socialSource });
    expect(shareColumns([share('Email'), share('Download'), share('Email')])).toEqual({
      sharedCount: 3,
      shareSources: ['Download', 'Email'],
    });
    expect(shareColumns([])).toEqual({ sharedCount: 0, shareSources: [] });
  });
});
