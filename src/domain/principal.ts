/**
 * Who a request speaks for. Anonymous unless a valid session cookie or an API key
 * (`Authorization: Bearer wfk_…`) proves an account: src/http/callers/principal.ts decides, every use case
 * reads the result. `admin` is true when the operator names the account (ADMIN_EMAILS, or the OIDC
 * admin claim at its last sign-in).
 */
export type Principal =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'account';
      /** Our id for the account (not the OIDC subject). */
      readonly accountId: string;
      readonly email: string | null;
      readonly name: string | null;
      readonly admin: boolean;
      readonly via: 'session' | 'api-key';
    };

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

/** The account a principal speaks for, or null when anonymous. */
export const accountIdOf = (principal: Principal): string | null =>
  principal.kind === 'account' ? principal.accountId : null;

/** The prefix of every API key: recognisable in a config file, and by secret scanners. */
export const API_KEY_PREFIX = 'wfk_';

/** An API key as presented: the prefix and 43 base64url characters (256 random bits). */
export const API_KEY_PATTERN = /^wfk_[A-Za-z0-9_-]{43}$/;
