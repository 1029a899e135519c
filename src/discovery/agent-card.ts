import type { AgentCard } from '@a2a-js/sdk';
import type { Config } from '../config/config.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { OPENAPI_VERSION, SERVICE_NAME, surfaceUrl } from './surfaces.js';

/**
 * The A2A agent card (spec 4.3) at /.well-known/agent-card.json. One document serves both protocol
 * versions: 1.0 clients read `supportedInterfaces` (the 1.0 entry first, so it is preferred), 0.3
 * clients read the top-level `url`, `preferredTransport` and `protocolVersion`. The 1.0 client only
 * treats a card as 0.3 when `supportedInterfaces` is missing or empty, so the extra fields are safe.
 */
export const A2A_SKILL_ID = 'create-empty-webfolder';
export const A2A_VERSIONS = ['1.0', '0.3'] as const;

const DESCRIPTION =
  'Creates end-to-end-encrypted share folders: send a message (for example "create a share folder called Holiday photos") ' +
  'and get back a link that a person opens in a browser to upload files into.';

const SKILL = {
  id: A2A_SKILL_ID,
  name: 'Create an empty webfolder',
  description:
    'Creates an empty share folder and answers with its link (text part) and the create response (data part). ' +
    'Title and mode come from a data part {"title": "...", "mode": "send" | "share"} or from plain text ' +
    '("... called <title>", "... in share mode"). Mode "send" (default): one person sends files to others; ' +
    '"share": collaborators exchange files; "request" is refused because the first browser uploader becomes the owner. ' +
    `Give the person the full link; they must upload at least one file within ${UPLOAD_REQUIRED_WITHIN_HOURS} hours, then share the same link.`,
  tags: ['file-transfer', 'upload', 'share', 'encryption', 'folder'],
  examples: [
    'Create a share folder called Holiday photos',
    'Create a folder for sending the Q3 reports',
    'Create a folder called Wedding pictures in share mode',
    '{"title": "Project files", "mode": "share"}',
  ],
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
};

/** The card as served (JSON): 1.0 fields plus the 0.3 top-level fields. */
export function agentCardDocument(config: Config) {
  const url = surfaceUrl(config.baseUrl, 'a2a');
  return {
    name: SERVICE_NAME,
    description: DESCRIPTION,
    version: OPENAPI_VERSION,
    supportedInterfaces: A2A_VERSIONS.map((protocolVersion) => ({ url, protocolBinding: 'JSONRPC', protocolVersion })),
    provider: { organization: SERVICE_NAME, url: config.webUrl },
    documentationUrl: config.docsUrl,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [SKILL],
    // A2A 0.3 fields.
    protocolVersion: '0.3.0',
    url,
    preferredTransport: 'JSONRPC',
  };
}

/** The same card as the SDK's typed 1.0 object, for DefaultRequestHandler (version checks). */
export function coreAgentCard(config: Config): AgentCard {
  const doc = agentCardDocument(config);
  return {
    name: doc.name,
    description: doc.description,
    version: doc.version,
    supportedInterfaces: doc.supportedInterfaces.map((i) => ({ ...i, tenant: '' })),
    provider: doc.provider,
    documentationUrl: doc.documentationUrl,
    capabilities: { ...doc.capabilities, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: doc.defaultInputModes,
    defaultOutputModes: doc.defaultOutputModes,
    skills: [{ ...SKILL, securityRequirements: [] }],
    signatures: [],
  };
}
