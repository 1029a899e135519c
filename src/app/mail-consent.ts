import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config/config.js';
import type { MailAddressStatus, MailAllowance } from '../store/mail-store.js';
import { invalid, RateLimited } from './errors.js';
import type { Services } from './services.js';

/**
 * Consent for mail: an address gets nothing from this instance but one confirmation
 * mail until its owner confirms it (a link), and can refuse all mail from the instance at any time
 * (a link in every mail, and RFC 8058 one-click unsubscribe). The links are signed with the
 * instance's signing secret, so nothing about a pending confirmation is stored: only the answer
 * (confirmed, or refused: the suppression list), keyed by a hash of the address.
 *
 * A confirmation link is valid for CONFIRM_LINK_HOURS; a refusal link never expires (mail
 * providers keep showing the unsubscribe button of old mail).
 */
export const CONFIRM_LINK_HOURS = 72;
const DAY_MS = 24 * 3600_000;

export type EmailStatus = MailAddressStatus | 'pending';
export type ConsentAction = 'confirm' | 'refuse';

/** The key of an address in the store: a hash of it, case-insensitive (as providers treat them). */
export function addressKey(address: string): string {
  return createHash('sha256').update(`webfolder mail address\n${address.trim().toLowerCase()}`).digest('base64url');
}

const clientKey = (ip: string) => createHash('sha256').update(`webfolder mail client\n${ip}`).digest('base64url');

function mac(key: Buffer, action: ConsentAction, address: string, expires: number | null): string {
  return createHmac('sha256', key)
    .update(`${action}\n${address}\n${expires ?? ''}`)
    .digest('base64url');
}

/** Where the consent pages are: under the site, like the folder pages. */
export function consentPath(config: Config, action: ConsentAction): string {
  return `${config.webUrl}/mail/${action}`;
}

export interface ConsentLinks {
  readonly confirm: string;
  readonly refuse: string;
}

export async function consentLinks(
  services: Pick<Services, 'config' | 'keys'>,
  address: string,
  now: number,
): Promise<ConsentLinks> {
  const key = services.keys.of('mailLinks');
  const expires = now + CONFIRM_LINK_HOURS * 3600_000;
  const confirm = new URLSearchParams({
    address,
    expires: String(expires),
    sig: mac(key, 'confirm', address, expires),
  });
  const refuse = new URLSearchParams({ address, sig: mac(key, 'refuse', address, null) });
  return {
    confirm: `${consentPath(services.config, 'confirm')}?${confirm}`,
    refuse: `${consentPath(services.config, 'refuse')}?${refuse}`,
  };
}

/** The query of a consent link, as the route's schema (src/contract/requests.ts) let it through. */
export interface ConsentQuery {
  readonly address: string;
  readonly sig: string;
  readonly expires?: string;
}

async function checkLink(services: Services, action: ConsentAction, q: ConsentQuery): Promise<void> {
  const expires = action === 'confirm' ? Number(q.expires) : null;
  if (action === 'confirm' && (q.expires === undefined || !Number.isSafeInteger(expires)))
    throw invalid('expires is required: open the link from the mail as it was sent');
  const expected = Buffer.from(mac(services.keys.of('mailLinks'), action, q.address, expires));
  const given = Buffer.from(q.sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw invalid('sig does not match: open the link from the mail as it was sent');
  if (expires !== null && expires <= services.clock())
    throw invalid(`this confirmation link has expired (links last ${CONFIRM_LINK_HOURS} hours): ask again`);
}

/** Checks a link without acting on it (the page that asks "confirm?" before the button). */
export async function checkConsentLink(services: Services, action: ConsentAction, q: ConsentQuery): Promise<void> {
  await checkLink(services, action, q);
}

/** The button of a link's page, or an RFC 8058 one-click POST: records the answer. */
export async function answerConsent(services: Services, action: ConsentAction, q: ConsentQuery): Promise<void> {
  await checkLink(services, action, q);
  await services.store.mail.setAddressStatus(
    addressKey(q.address),
    action === 'confirm' ? 'confirmed' : 'refused',
    services.clock(),
  );
}

export async function emailStatus(services: Services, address: string | null): Promise<EmailStatus | null> {
  if (address === null) return null;
  return (await services.store.mail.addressStatus(addressKey(address))) ?? 'pending';
}

/**
 * An owner named `address` for notifications: unless it confirmed or refused already, it is sent one
 * confirmation mail, within the limits per client (429 when spent: the client is asking too often)
 * and per address (then nothing is sent, silently: the address is not the caller's to probe). The
 * mail itself waits in the outbox, where the instance's budget applies (src/notify/notifier.ts).
 */
export async function requestConfirmation(
  services: Services,
  address: string,
  ip: string,
  /** The page's language when it asked (a site language tag), for the mail's words; null: English. */
  language: string | null = null,
): Promise<EmailStatus> {
  const key = addressKey(address);
  const status = await services.store.mail.addressStatus(key);
  if (status) return status;
  const now = services.clock();
  const limits = services.config.mail;
  const perClient: MailAllowance = {
    key: `confirm-client:${clientKey(ip)}`,
    windowMs: DAY_MS,
    limit: limits.confirmationsPerClientPerDay,
  };
  if (!(await services.store.mail.spend([perClient], now))) {
    const retry = Math.ceil((DAY_MS - (now % DAY_MS)) / 1000);
    throw new RateLimited(
      `too many confirmation mails asked for from this address today (at most ${limits.confirmationsPerClientPerDay})`,
      retry,
    );
  }
  const perAddress: MailAllowance = {
    key: `confirm-address:${key}`,
    windowMs: DAY_MS,
    limit: limits.confirmationsPerAddressPerDay,
  };
  if (!(await services.store.mail.spend([perAddress], now))) return 'pending';
  await services.store.outbox.enqueueOutbox([
    {
      id: `mail-confirm:${key}:${now}`,
      eventId: `mail-confirm:${key}:${now}`,
      target: 'mail-confirm',
      folderId: null,
      payload: JSON.stringify(language ? { to: address, language } : { to: address }),
      createdAt: now,
      nextAttemptAt: now,
    },
  ]);
  return 'pending';
}
