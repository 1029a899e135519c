import type { FastifyInstance } from 'fastify';
import { SITE_MANIFEST_PATH, SITE_SIGNATURE_SUFFIX } from '../../domain/site-manifest.js';
import { builtManifest, builtSignature } from '../../release/build-manifest.js';
import { PAGE_POLICY } from '../callers/route-policy.js';

/**
 * The site manifest at its well-known address below the site's path (src/domain/site-manifest.ts):
 * the build's dist/site-manifest.json as it is, and its release signature beside it when the
 * release was signed. The same bytes on every backend; what `webfolder verify-site` reads first.
 * `base` is the site's path (not Fastify's `prefix` option, which would prefix it once more).
 */
export async function siteManifestRoutes(app: FastifyInstance, { base }: { base: string }): Promise<void> {
  const route = { config: PAGE_POLICY };
  const notBuilt = (what: string) => ({ error: `${what} is not part of this build`, code: 'not_found' });
  app.get(`${base}${SITE_MANIFEST_PATH}`, route, async (_request, reply) => {
    const manifest = builtManifest();
    if (!manifest) return reply.status(404).send(notBuilt('the site manifest'));
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .send(manifest.bytes);
  });
  app.get(`${base}${SITE_MANIFEST_PATH}${SITE_SIGNATURE_SUFFIX}`, route, async (_request, reply) => {
    const signature = builtSignature();
    if (!signature) return reply.status(404).send(notBuilt('a release signature'));
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .send(signature);
  });
}
