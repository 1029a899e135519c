import { randomBytes } from 'node:crypto';
import type { PendingUpload, Receipt, SiteStore } from '../../web/src/state/index.js';

/** The page's storage (web/src/adapters/storage.ts) over a Map, for the session driven without a browser. */
export function memoryStore(): SiteStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  const pending = (id: string): PendingUpload[] => JSON.parse(data.get(`uploads:${id}`) ?? '[]') as PendingUpload[];
  const savePending = (id: string, list: PendingUpload[]) =>
    list.length ? data.set(`uploads:${id}`, JSON.stringify(list)) : data.delete(`uploads:${id}`);
  const receipts = (id: string): Receipt[] => JSON.parse(data.get(`receipts:${id}`) ?? '[]') as Receipt[];
  return {
    data,
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
  };
}
