import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';

/** Whether the master template has overlays (the demo overlays' first-start check). */
export async function templateHasOverlays(db: Db): Promise<boolean> {
  const [row] = await db
    .select({
      n: sql<number>`coalesce(jsonb_array_length(case when jsonb_typeof(${events.config}->'overlays') = 'array' then ${events.config}->'overlays' end), 0)`,
    })
    .from(events)
    .where(eq(events.template, true))
    .limit(1);
  return Number(row?.n ?? 0) > 0;
}
