/**
 * The operator's claim rules (OIDC_REQUIRED_CLAIM, OIDC_ADMIN_CLAIM: `claim=value`): a rule holds
 * when the claim equals the value, or is a list that contains it (groups, roles). Anything else
 * (absent, a number, an object) does not hold: a rule never passes by accident.
 */
export interface ClaimRule {
  readonly claim: string;
  readonly value: string;
}

export function claimHolds(claims: Readonly<Record<string, unknown>>, rule: ClaimRule): boolean {
  const found = claims[rule.claim];
  if (typeof found === 'string') return found === rule.value;
  if (typeof found === 'boolean') return String(found) === rule.value;
  return Array.isArray(found) && found.some((item) => item === rule.value);
}

/** A relative path on the site to come back to after signing in; anything else is `/`. */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 300) return '/';
  // One leading slash, then printable ASCII without a backslash: never another origin (`//host`, `/\host`).
  return /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/.test(raw) ? raw : '/';
}
