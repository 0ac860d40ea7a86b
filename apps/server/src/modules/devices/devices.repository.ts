import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';

/** Sets the template's overlays only while it has none (first start); true when it did. */
export async function setTemplateOverlaysIfEmpty(db: Db, overlays: Record<string, unknown>[]): Promise<boolean> {
  const rows = await db
    .update(events)
    .set({ config: sql`jsonb_set(${events.config}, '{overlays}', ${JSON.stringify(overlays)}::jsonb, true)` })
    .where(
      and(
        eq(events.template, true),
        sql`coalesce(jsonb_array_length(case when jsonb_typeof(${events.config}->'overlays') = 'array' then ${events.config}->'overlays' end), 0) = 0`,
      ),
    )
    .returning({ id: events.id });
  return rows.length > 0;
}

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
