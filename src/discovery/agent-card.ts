import type { Config } from '../config/config.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { OPENAPI_VERSION, SERVICE_NAME, surfaceUrl } from './surfaces.js';

/**
 * The A2A agent cards (spec 4.3) at /.well-known/agent-card.json, one per protocol version, each
 * with only the fields its version defines: strict parsers of either schema reject the other's
 * fields. Plain data: this module imports no SDK (src/agents/a2a-card.ts turns the 1.0 card into
 * the SDK's typed object).
 *
 * Which card is served follows A2A's version rule for every request: the `A2A-Version` header (or,
 * for tools that cannot set headers, an `A2A-Version` query parameter); none means 0.3.
 */
export const A2A_SKILL_ID = 'create-empty-webfolder';
/** Major.minor, as A2A 1.0 writes versions; the 1.0 card lists both interfaces, 1.0 first (preferred). */
export const A2A_VERSIONS = ['1.0', '0.3'] as const;
export type A2aCardVersion = (typeof A2A_VERSIONS)[number];
export const A2A_VERSION_HEADER = 'A2A-Version';

const DESCRIPTION =
  'Creates end-to-end-encrypted share folders: send a message (for example "create a share folder called Holiday photos") ' +
  'and get back a link that a person opens in a browser to upload files into.';

export const A2A_SKILL = {
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

const MODES = ['text/plain', 'application/json'];

/** The card of A2A 1.0 (AgentCard of the 1.0 schema): interfaces carry the URL and the versions. */
export function agentCardV1(config: Config) {
  const url = surfaceUrl(config.baseUrl, 'a2a');
  return {
    name: SERVICE_NAME,
    description: DESCRIPTION,
    version: OPENAPI_VERSION,
    supportedInterfaces: A2A_VERSIONS.map((protocolVersion) => ({ url, protocolBinding: 'JSONRPC', protocolVersion })),
    provider: { organization: SERVICE_NAME, url: config.webUrl },
    documentationUrl: config.docsUrl,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: [A2A_SKILL],
  };
}

/** The card of A2A 0.3 (AgentCard of the 0.3 schema): one URL, its transport and the protocol version. */
export function agentCardV03(config: Config) {
  return {
    protocolVersion: '0.3.0',
    name: SERVICE_NAME,
    description: DESCRIPTION,
    url: surfaceUrl(config.baseUrl, 'a2a'),
    preferredTransport: 'JSONRPC',
    provider: { organization: SERVICE_NAME, url: config.webUrl },
    version: OPENAPI_VERSION,
    documentationUrl: config.docsUrl,
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: [A2A_SKILL],
    supportsAuthenticatedExtendedCard: false,
  };
}

/**
 * The card version for a requested `A2A-Version` value: none, or 0.3 in any spelling ("0.3",
 * "0.3.0"), is 0.3; any other value gets the 1.0 card, whose interfaces list what is served.
 */
export function cardVersionFor(requested: string | undefined): A2aCardVersion {
  const value = requested?.trim();
  if (!value || /^0\.3(\.\d+)?$/.test(value)) return '0.3';
  return '1.0';
}
