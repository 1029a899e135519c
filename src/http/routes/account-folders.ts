import type { FastifyInstance } from 'fastify';
import { accountFolders } from '../../app/account-folders.js';
import type { Services } from '../../app/services.js';
import { accountFoldersQuery } from '../../contract/account-folders.js';
import { answerSchemas as answers } from '../../contract/answers.js';
import { ACCOUNT_FOLDERS_PATH } from '../../contract/paths.js';
import { routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';

/**
 * "My folders": `GET <site>/api/account/folders`, the folders the signed-in account made
 * (request.principal, src/http/callers/principal.ts). Registered by the site's routes, so the site's CSP,
 * headers and rate limit apply. The owner's controls on these folders are the site's owner routes
 * (./site-owner.ts), which accept the account for every control that needs no key
 * (src/app/site/access.ts ownerAuthority).
 */
export async function accountFolderRoutes(
  scope: FastifyInstance,
  { services, base }: { services: Services; base: string },
): Promise<void> {
  typed(scope).get(
    `${base}${ACCOUNT_FOLDERS_PATH}`,
    {
      ...limitedBy('site'),
      config: routePolicy('account', ['session', 'api-key']),
      schema: { querystring: accountFoldersQuery, response: { 200: answers.accountFolders } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return accountFolders(services, request.principal, request.query);
    },
  );
}
