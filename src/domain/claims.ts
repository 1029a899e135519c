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

/** A `.` or `..` path segment, as a browser reads one in a URL (`%2e` is a dot there too). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * A relative path on the site to come back to after signing in; anything else is `/`. The site may
 * live under a path (`WEB_URL=https://host/wf`), where the path is appended to: a dot segment would
 * climb out of it to another application on the same host (`/wf/../other`), so none is allowed.
 */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 300) return '/';
  // One leading slash, then printable ASCII without a backslash: never another origin (`//host`, `/\host`).
  if (!/^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/.test(raw)) return '/';
  const path = raw.split(/[?#]/, 1)[0]!;
  return path.split('/').some((segment) => DOT_SEGMENT.test(segment)) ? '/' : raw;
}
