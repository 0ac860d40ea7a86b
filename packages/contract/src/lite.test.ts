import { describe, expect, it } from 'vitest';
import * as full from './index.ts';
import * as lite from './lite.ts';

const SCHEMA_KEYS = ['params', 'query', 'body', 'response'];
const withoutSchemas = (routes: Record<string, object>) =>
  Object.fromEntries(
    Object.entries(routes).map(([name, def]) => [
      name,
      Object.fromEntries(Object.entries(def).filter(([k]) => !SCHEMA_KEYS.includes(k))),
    ]),
  );

describe('the lite contract (the console shell, without zod)', () => {
  it.each(['authRoutes', 'rolesRoutes', 'eventsRoutes', 'attendeeRoutes', 'attendeeAppRoutes'] as const)(
    '%s: the same routes, methods, paths and access as the full contract, and no schemas',
    (table) => {
      expect(lite[table]).toEqual(withoutSchemas(full[table]));
      for (const def of Object.values(lite[table])) {
        for (const key of SCHEMA_KEYS) expect(def).not.toHaveProperty(key);
      }
    },
  );

  it('the attendee app routes of other tables: the same method, path and access', () => {
    expect(lite.publicTriviaRoute).toEqual(withoutSchemas({ r: full.triviaRoutes.publicQuestions }).r);
    expect(lite.pageViewRoute).toEqual(withoutSchemas({ r: full.analyticsRoutes.pageView }).r);
  });

  it('exports the same texts, constants, permissions and path helpers as the full contract', () => {
    for (const [name, value] of Object.entries(lite)) {
      if (name.endsWith('Route')) continue;
      expect(name in full, name).toBe(true);
      if (!name.endsWith('Routes')) expect(value, name).toBe(full[name as keyof typeof full]);
    }
    expect(lite.MSG).toBe(full.MSG);
    expect(lite.buildPath('/api/event/:slugDate', { slugDate: 'a b' })).toBe('/api/event/a%20b');
  });
});
