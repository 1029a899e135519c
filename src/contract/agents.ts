import type { FromSchema } from 'json-schema-to-ts';
import { AGENT_MODES } from './requests.js';

/**
 * What the MCP tool `create_share_folder` answers as structured content (its outputSchema): the
 * empty folder's link for the person, and what to tell them. Stated here beside the agent request
 * (./requests.ts), as JSON Schema like the rest of the contract.
 */
export const agentFolderResultSchema = {
  type: 'object',
  properties: {
    folderUrl: {
      type: 'string',
      description: 'Share link including the secret key after "#". Give it to the person in full.',
    },
    folderUrlBase: {
      type: 'string',
      description: 'The share link without the secret key (not enough to open the folder).',
    },
    folderId: { type: 'string' },
    mode: { type: 'string', enum: AGENT_MODES },
    uploadRequiredWithinHours: {
      type: 'number',
      description: 'The person must upload at least one file within this many hours.',
    },
    instructions: { type: 'string', description: 'What to tell the person.' },
  },
  required: ['folderUrl', 'folderUrlBase', 'folderId', 'mode', 'uploadRequiredWithinHours', 'instructions'],
  additionalProperties: false,
} as const;

export type AgentFolderResult = FromSchema<typeof agentFolderResultSchema>;
