import type { Config } from '../config/config.js';
import { API_VERSION, OPERATIONS, SERVICE_NAME, SURFACES, type SurfaceKey } from './surfaces.js';

/** The service index (spec 4.3): name, version, docs, every discovery address and both endpoints. */
export function serviceIndex(config: Config) {
  const surfaces = Object.fromEntries(
    (Object.keys(SURFACES) as SurfaceKey[]).map((key) => [
      key,
      SURFACES[key].paths.map((p) => `${config.baseUrl}${p}`),
    ]),
  );
  return {
    name: SERVICE_NAME,
    description:
      'End-to-end-encrypted share folders: create one, hand its link to a person, they upload in the browser.',
    version: API_VERSION,
    documentation: config.docsUrl,
    web: config.webUrl,
    surfaces,
    endpoints: Object.entries(OPERATIONS).map(([operationId, op]) => ({
      operationId,
      method: op.method,
      url: `${config.baseUrl}${op.path}`,
      summary: op.summary,
    })),
  };
}
