import { attendeeAppRoutes, attendeeRoutes } from '@stadiumcam/contract';
import type { TestApp } from '../../test/harness.ts';

/** A fan as the attendee app is one: a server-issued id and the header carrying its token. */
export type TestFan = { userId: string; fanToken: string; headers: { 'x-fan-token': string } };

export async function newFan(t: TestApp, headers: Record<string, string> = {}): Promise<TestFan> {
  const res = await t.call(attendeeAppRoutes.fan, { headers });
  if (res.status !== 200) throw new Error(`no fan id: ${res.status} ${JSON.stringify(res.body)}`);
  const { userId, fanToken } = res.body as { userId: string; fanToken: string };
  return { userId, fanToken, headers: { 'x-fan-token': fanToken } };
}

type JoinBody = { slugDate: string; userId?: string; seat: Record<string, string>; location?: unknown };

/** A queue join as the app makes it: the fan's own id in the body, its token in the header. */
export function joinAs(t: TestApp, fan: TestFan, body: JoinBody) {
  return t.call(attendeeRoutes.joinQueue, { body: { ...body, userId: fan.userId } as never, headers: fan.headers });
}

/** A queue join by a fan new to the server (each call another fan). */
export async function joinAsNewFan(t: TestApp, body: JoinBody) {
  return joinAs(t, await newFan(t), body);
}
