import { beforeAll, expect, it } from 'vitest';
import { P, snapshotsRoutes as r } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { makeEvent, makePhoto } from '../../test/factories.ts';

const EVENT = 'stadiumcam-2030-02-01';

describeEachDb('event users export (spec 3 §6: EventUsers:read views and exports)', (t) => {
  beforeAll(async () => {
    await makeEvent(t().app.deps.db, EVENT, { title: 'Export game', eventStatus: 'post' });
    // 120 photos: more than one page of the table's reads (100).
    for (let i = 0; i < 120; i++) {
      await makePhoto(t().app.deps.db, {
        id: `eu-${String(i).padStart(3, '0')}`,
        slugDate: EVENT,
        // A user id a spreadsheet would run as a formula, were it not neutralised.
        userId: i === 7 ? '=HYPERLINK("http://evil.example","x")' : `fan-${i % 30}`,
        section: i < 100 ? '101' : '205',
        row: 'A',
        seat: String(i + 1),
        date: new Date(Date.UTC(2030, 1, 1, 18, 0, i)),
        postObj:
          i === 3
            ? [
                {
                  socialSource: 'Email',
                  imgURL: '/media/x.jpg',
                  date: '2030-02-01T18:10:00Z',
                  userEmail: 'fan3@example.com',
                },
              ]
            : [],
        sharedCount: i === 3 ? 1 : 0,
        shareSources: i === 3 ? ['Email'] : [],
      });
    }
  });

  const get = (query: Record<string, unknown>, cookie: string) => t().call(r.eventUsersExport, { query, cookie });

  it('writes every row of the filter as quoted CSV with the table columns, formulas neutralised', async () => {
    const { cookie } = await t().userWith([P.EVENT_USERS_READ]);
    const res = await get({ slugDate: [EVENT], sortField: 'date', sortOrder: 'asc' }, cookie);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${EVENT}-event-users.csv"`);
    const lines = String(res.body).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '"_id","userId","section","row","seat","date","hidden","shares","sharedURI","sharedPlatforms","contactInfo","overlay"',
    );
    expect(lines).toHaveLength(121);
    expect(lines[1]).toMatch(/^"eu-000","fan-0","101","A","1",/);
    expect(lines[4]).toContain('"Email <fan3@example.com>"');
    expect(lines[4]).toContain('"fan3@example.com"');
    expect(lines[8]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);

    const narrow = await get({ slugDate: [EVENT], section: ['205'] }, cookie);
    expect(String(narrow.body).trimEnd().split('\r\n')).toHaveLength(21);
  });

  it('is refused without EventUsers:read', async () => {
    const { cookie } = await t().userWith([P.ANALYTICS_READ]);
    const res = await get({ slugDate: [EVENT] }, cookie);
    expect(res.status).toBe(403);
  });
});
