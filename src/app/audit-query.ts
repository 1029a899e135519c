import type { AuditExportQuery, AuditListQuery } from '../contract/admin-audit.js';
import { AUDIT_PAGE_DEFAULT } from '../domain/audit.js';
import type { AuditFilter } from '../store/audit-store.js';
import { type AuditView, auditView } from './audit.js';
import { invalid } from './errors.js';
import type { Services } from './services.js';

/**
 * Reading the audit log: the admin listing, a page at a time newest first, and the
 * JSON-lines export of every matching entry, read from the store a page at a time so that its
 * memory stays bounded however long the log is. The queries arrive checked against
 * src/contract/admin-audit.ts.
 */
const EXPORT_PAGE = 500;

function timeOf(text: string, name: string): number {
  // A bare date is midnight UTC; a date-time carries its zone (the schema requires one).
  const ms = Date.parse(/T/.test(text) ? text : `${text}T00:00:00Z`);
  if (!Number.isFinite(ms)) throw invalid(`${name} is not a valid date`);
  return ms;
}

function filterOf(query: AuditExportQuery): AuditFilter {
  const filter: AuditFilter = {
    ...(query.action !== undefined ? { action: query.action } : {}),
    ...(query.account !== undefined ? { accountId: query.account } : {}),
    ...(query.folder !== undefined ? { folderId: query.folder } : {}),
    ...(query.since !== undefined ? { since: timeOf(query.since, 'since') } : {}),
    ...(query.until !== undefined ? { until: timeOf(query.until, 'until') } : {}),
  };
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until)
    throw invalid('since must be before until');
  return filter;
}

export interface AuditListing {
  readonly entries: AuditView[];
  /** Pass as `cursor` for the next (older) page; null on the last. */
  readonly nextCursor: string | null;
}

export async function listAudit(services: Services, query: AuditListQuery): Promise<AuditListing> {
  const limit = query.limit === undefined ? AUDIT_PAGE_DEFAULT : Number(query.limit);
  const entries = await services.store.audit.list(filterOf(query), {
    limit: limit + 1,
    ...(query.cursor !== undefined ? { before: Number(query.cursor) } : {}),
  });
  const page = entries.slice(0, limit);
  return {
    entries: page.map(auditView),
    nextCursor: entries.length > limit ? String(page[page.length - 1]!.id) : null,
  };
}

/**
 * Every matching entry as one JSON line each, newest first. The filter is checked before the first
 * line (so bad input is a 400, not a broken stream); then pages are read as the consumer pulls.
 */
export function exportAudit(services: Services, query: AuditExportQuery): AsyncGenerator<string> {
  const filter = filterOf(query);
  return (async function* lines() {
    let before: number | undefined;
    for (;;) {
      const page = await services.store.audit.list(filter, {
        limit: EXPORT_PAGE,
        ...(before !== undefined ? { before } : {}),
      });
      if (page.length > 0) yield page.map((e) => `${JSON.stringify(auditView(e))}\n`).join('');
      if (page.length < EXPORT_PAGE) return;
      before = page[page.length - 1]!.id;
    }
  })();
}
