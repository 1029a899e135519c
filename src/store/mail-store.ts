/**
 * What the instance knows about the addresses it mails, shared by every node through the
 * metadata store so that the limits hold across nodes:
 *
 * - `mail_addresses`: an address that confirmed it wants this instance's mail, or refused all of it
 *   (the suppression list). Keyed by a hash of the address (src/app/mail-consent.ts `addressKey`), so
 *   the list of people who refused mail is not a list of addresses.
 * - `mail_counters`: fixed-window counters (confirmations per address and per client, notification
 *   mails per folder and per address, the instance's hourly and daily budget). `spend` takes one from
 *   several at once, all or none, atomically.
 */
export type MailAddressStatus = 'confirmed' | 'refused';

export interface MailAllowance {
  /** What is counted, e.g. `confirm-ip:<hash>`. */
  readonly key: string;
  readonly windowMs: number;
  /** Most spends per window. */
  readonly limit: number;
}

export interface MailStore {
  addressStatus(addressKey: string): Promise<MailAddressStatus | null>;
  setAddressStatus(addressKey: string, status: MailAddressStatus, now: number): Promise<void>;
  /** Takes one from every allowance, or from none: false when any of them is used up. */
  spend(allowances: readonly MailAllowance[], now: number): Promise<boolean>;
}
