import type { Config } from '../config/config.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { SERVICE_NAME, surfaceUrl } from './surfaces.js';

/**
 * /.well-known/ai-plugin.json, the (deprecated but still read) OpenAI plugin manifest. It points at
 * the OpenAPI document; the model-facing description states the empty-folder flow's rules.
 * contact_email: CONTACT_EMAIL, by default webmaster@ the API's host when that is a domain name; an
 * instance without one (an IP address, localhost) leaves the field out rather than publish an address
 * nobody can receive mail at (see src/config/addresses.ts defaultContactEmail).
 */

/** The manifest requires a logo; a small one is served beside it so the address resolves. */
export const AI_PLUGIN_LOGO_PATH = '/.well-known/ai-plugin-logo.svg';
export const AI_PLUGIN_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="12" fill="#1f6feb"/>' +
  '<path d="M12 22a4 4 0 0 1 4-4h10l5 5h17a4 4 0 0 1 4 4v19a4 4 0 0 1-4 4H16a4 4 0 0 1-4-4z" fill="#fff"/>' +
  '<rect x="27" y="32" width="10" height="9" rx="1.5" fill="#1f6feb"/><path d="M29 32v-3a3 3 0 0 1 6 0v3" stroke="#1f6feb" stroke-width="2" fill="none"/></svg>';
export function aiPluginManifest(config: Config) {
  return {
    schema_version: 'v1',
    name_for_human: 'webfolder',
    name_for_model: SERVICE_NAME,
    description_for_human: 'Create end-to-end-encrypted share folders that people upload files into in their browser.',
    description_for_model:
      'Create a share folder with POST /v2/folders and no files. Give the person the full folderUrl including the part after "#" ' +
      `(the encryption key). They must open it and upload at least one file within ${UPLOAD_REQUIRED_WITHIN_HOURS} hours, then share the same link. ` +
      'Use mode "send" when one person sends files to others, "share" when collaborators exchange files; never "request" for an empty folder, ' +
      'because the first browser uploader becomes the owner. Do not call upload-status for empty folders.',
    auth: { type: 'none' },
    api: { type: 'openapi', url: surfaceUrl(config.baseUrl, 'openapi'), is_user_authenticated: false },
    logo_url: `${config.baseUrl}${AI_PLUGIN_LOGO_PATH}`,
    ...(config.contactEmail ? { contact_email: config.contactEmail } : {}),
    legal_info_url: config.docsUrl,
  };
}
