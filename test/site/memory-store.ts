import { randomBytes } from 'node:crypto';
import type { PendingUpload, Receipt, SiteStore, StoredTicket } from '../../web/src/state/index.js';

/**
 * The page's storage (web/src/adapters/storage.ts) over a Map, for the session driven without a
 * browser. `inUse` stands for the Web Locks of running downloads: the tickets a test says are in use.
 */
export function memoryStore(): SiteStore & { data: Map<string, string>; inUse: Set<string> } {
  const data = new Map<string, string>();
  const inUse = new Set<string>();
  const tickets = (id: string): StoredTicket[] =>
    (JSON.parse(data.get(`tickets:${id}`) ?? '[]') as StoredTicket[]).filter((t) => t.expiresAt > Date.now());
  const pending = (id: string): PendingUpload[] => JSON.parse(data.get(`uploads:${id}`) ?? '[]') as PendingUpload[];
  const savePending = (id: string, list: PendingUpload[]) =>
    list.length ? data.set(`uploads:${id}`, JSON.stringify(list)) : data.delete(`uploads:${id}`);
  const receipts = (id: string): Receipt[] => JSON.parse(data.get(`receipts:${id}`) ?? '[]') as Receipt[];
  return {
    data,
    inUse,
    ownerSecretOf: (id) => data.get(`owner:${id}`) ?? null,
    saveOwnerSecret: (id, secret) => (secret === null ? data.delete(`owner:${id}`) : data.set(`owner:${id}`, secret)),
    visitorToken: () => {
      if (!data.has('visitor')) data.set('visitor', randomBytes(32).toString('base64url'));
      return data.get('visitor')!;
    },
    pendingUploads: pending,
    addPending: (id, upload) => savePending(id, [...pending(id).filter((u) => u.fileId !== upload.fileId), upload]),
    removePending: (id, fileId) =>
      savePending(
        id,
        pending(id).filter((u) => u.fileId !== fileId),
      ),
    receipts,
    addReceipt: (id, receipt) => data.set(`receipts:${id}`, JSON.stringify([...receipts(id), receipt])),
    keptTickets: tickets,
    keepTicket: (id, fileId, ticket) => {
      const kept = [...tickets(id).filter((t) => t.fileId !== fileId), ...(ticket ? [ticket] : [])];
      if (kept.length) data.set(`tickets:${id}`, JSON.stringify(kept));
      else data.delete(`tickets:${id}`);
    },
    ticketInUse: async (_id, ticket) => inUse.has(ticket.ticket),
  };
}
