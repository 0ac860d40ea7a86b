import { Readable } from 'node:stream';
import { auditRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { exportAuditCsv, listAudit } from './audit.service.ts';

export function registerAuditRoutes(app: App, deps: Deps): void {
  registerRoute(app, auditRoutes.list, ({ query }) => listAudit(deps, query));
  registerRoute(app, auditRoutes.exportCsv, async ({ query, reply }) => {
    const lines = await exportAuditCsv(deps, query);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(lines));
    return reply;
  });
}
