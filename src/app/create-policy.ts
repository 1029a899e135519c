import { accountIdOf, type Principal } from '../domain/principal.js';
import { signInRequired } from './errors.js';
import type { Services } from './services.js';

/**
 * Who may make folders (CREATE_POLICY, CREATE_POLICY_API in src/config/auth.ts), checked
 * by every create use case: the v2 create (and v1 and the agents, which call it) as `api`, the site's
 * create-and-claim as `site`. `anyone` (the default) changes nothing. Under `signed-in`, the site
 * needs an account (a session, or an API key from the CLI), and so does the API unless the operator
 * leaves it `open`. Answers the account the folder is then recorded under (null: anonymous).
 */
export function creatorOf(services: Services, principal: Principal, surface: 'site' | 'api'): string | null {
  const { createPolicy, createPolicyApi } = services.config.auth;
  if (
    principal.kind === 'anonymous' &&
    createPolicy === 'signed-in' &&
    !(surface === 'api' && createPolicyApi === 'open')
  )
    throw signInRequired(
      surface === 'site'
        ? 'only signed-in people may make folders on this server: sign in first'
        : 'only signed-in people may make folders on this server: send an API key as Authorization: Bearer wfk_…',
    );
  return accountIdOf(principal);
}
