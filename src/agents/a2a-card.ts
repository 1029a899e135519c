import type { AgentCard } from '@a2a-js/sdk';
import type { Config } from '../config/config.js';
import { A2A_SKILL, agentCardV1 } from '../discovery/agent-card.js';

/**
 * The served 1.0 card as the SDK's typed object, for DefaultRequestHandler (its version checks read
 * `supportedInterfaces`, which lists 0.3 too). Built from the served card, so the two cannot differ.
 */
export function coreAgentCard(config: Config): AgentCard {
  const doc = agentCardV1(config);
  return {
    ...doc,
    supportedInterfaces: doc.supportedInterfaces.map((i) => ({ ...i, tenant: '' })),
    capabilities: { ...doc.capabilities, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    skills: [{ ...A2A_SKILL, securityRequirements: [] }],
    signatures: [],
  };
}
