import { createHmac } from 'node:crypto';

/**
 * The keys the server derives from its signing secret (SIGNING_SECRET, or the one kept in
 * DATA_DIR), one per purpose: a MAC made for one purpose never verifies for another, and every node
 * that shares the secret derives the same keys. The chunk URL signer (src/blobs/local) keys its own
 * derivation with the secret; everything in the use cases takes its key from here.
 */
const PURPOSES = {
  /** Download tickets (./site/downloads.ts). */
  downloadTickets: 'webfolder download tickets v1',
  /** The confirm and stop links in mails (./mail-consent.ts). */
  mailLinks: 'webfolder mail links v1',
  /** The keyed hash of a client address in the audit log (./audit.ts). */
  auditAddresses: 'webfolder audit client addresses v1',
} as const;
export type KeyPurpose = keyof typeof PURPOSES;

export class SigningKeys {
  private readonly keys = new Map<KeyPurpose, Buffer>();
  constructor(private readonly secret: string) {
    if (!secret) throw new Error('the signing secret is empty');
  }

  /** The key of one purpose (HMAC-SHA-256 of the purpose's label under the secret). */
  of(purpose: KeyPurpose): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = createHmac('sha256', this.secret).update(PURPOSES[purpose]).digest();
      this.keys.set(purpose, key);
    }
    return key;
  }
}
