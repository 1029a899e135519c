import type { Config } from '../config/config.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { SERVICE_NAME, surfaceUrl } from './surfaces.js';

/**
 * /.well-known/ai-plugin.json, the (deprecated but still read) OpenAI plugin manifest. It points at
 * the OpenAPI document; the model-facing description states the empty-folder flow's rules.
 * contact_email is required by the format but a self-hosted instance has none configured, so it is
 * left empty rather than invented.
 */
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
    logo_url: `${config.webUrl}/favicon.svg`,
    contact_email: '',
    legal_info_url: config.docsUrl,
  };
}
