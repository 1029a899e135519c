import { NO_ACTOR } from '../app/audit.js';
import { createFolder } from '../app/create-folder.js';
import { AppError, invalid } from '../app/errors.js';
import type { Services } from '../app/services.js';
import { type AgentFolderRequest, agentFolderRequestSchema } from '../contract/requests.js';
import type { CreateResponseEmpty } from '../contract/types.js';
import { compileValidator } from '../contract/validation.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { currentActor } from './create-gate.js';

/**
 * What the agent surfaces (MCP, A2A) share: the modes an agent may choose, the usage guidance of
 * spec 4.1 rules 4 and 5 in plain words, and the one path to creating a folder. Every surface ends
 * in `createFolder` (the use case behind POST /v2/folders), so validation, limits and the 24-hour
 * rule cannot drift between them; this module only narrows the request to the empty-folder flow.
 */

const FILES_REFUSAL =
  'files are not accepted here: agents create empty folders that a person uploads into (use POST /v2/folders for direct uploads)';

export const REQUEST_MODE_REFUSAL =
  'mode "request" is not available for folders created by an agent: in the empty-folder flow the first ' +
  'person who uploads in the browser becomes the owner, so a request folder would be owned by whoever ' +
  'uploads first. Use "send" (one person sends files to others) or "share" (collaborators exchange files).';

export const MODE_GUIDANCE =
  'Choose "send" (the default) when one person wants to send large files to others: they upload, ' +
  'recipients download. Choose "share" when several collaborators exchange files with each other: ' +
  'everyone with the link can upload and download. Do not choose "request": in this flow the first ' +
  'browser uploader becomes the folder owner, so it cannot collect files for you.';

export const HANDOFF_STEPS =
  `Give the person the full folderUrl, including the part after "#" (that part is the folder's ` +
  `encryption key; the server never sees it). They open it in a browser and upload at least one file ` +
  `within ${UPLOAD_REQUIRED_WITHIN_HOURS} hours, or the empty folder is deleted. The first person to ` +
  `upload becomes the folder's owner. Afterwards they share the same link with the recipients.`;

/** The usage guide returned by the MCP tool `get_usage_guide` and linked from the A2A skill. */
export function usageGuide(): string {
  return [
    'webfolder creates end-to-end-encrypted share folders for people to upload files into in their browser.',
    '',
    'How to use it (empty-folder flow):',
    '1. Call create_share_folder (optionally with a title of at most 200 characters and a mode).',
    `2. ${HANDOFF_STEPS}`,
    '3. Do not upload files yourself and do not poll for progress: the person does the upload in the browser.',
    '',
    `Which mode: ${MODE_GUIDANCE}`,
  ].join('\n');
}

/** What an agent asks for, not yet checked (read from text it may name the "request" mode). */
export interface FolderIntent {
  readonly title?: string | null;
  readonly mode?: string;
}

/** The text an agent relays to its user about a freshly created folder. */
export function handoffText(folder: CreateResponseEmpty): string {
  return [
    `Created a ${folder.mode} folder.`,
    `Folder link: ${folder.folderUrl}`,
    `Folder id: ${folder.folderId}`,
    `Mode: ${folder.mode}`,
    '',
    HANDOFF_STEPS,
  ].join('\n');
}

/**
 * The one check of what an agent asks for, whatever the surface (MCP tool arguments, an A2A data
 * part, or the title and mode read from A2A text): the contract's schema
 * (src/contract/requests.ts), after the two refusals that deserve their reason (spec 4.1 rule 5 for
 * "request", and direct uploads, which this flow does not take). Throws an invalid_request AppError with a message
 * meant for the agent. What it answers is a valid create request: `createFolder` checks no shape again.
 */
export function checkAgentRequest(value: unknown, name = 'arguments'): AgentFolderRequest {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (record.mode === 'request') throw invalid(REQUEST_MODE_REFUSAL);
    if (Object.hasOwn(record, 'files')) throw invalid(FILES_REFUSAL);
  }
  const checked = (name === 'arguments' ? validateArguments : validateDataPart)(value);
  if (!checked.ok) throw invalid(checked.error);
  return checked.value;
}

const validateArguments = compileValidator<AgentFolderRequest>(agentFolderRequestSchema, 'arguments');
const validateDataPart = compileValidator<AgentFolderRequest>(agentFolderRequestSchema, 'the data part');

/** Checks an intent without creating anything (see checkAgentRequest). */
export function checkIntent(intent: FolderIntent): void {
  checkAgentRequest(intent);
}

/** Creates an empty folder through the same use case as POST /v2/folders. */
export async function createFolderForAgent(services: Services, intent: FolderIntent): Promise<CreateResponseEmpty> {
  const created = await createFolder(services, checkAgentRequest(intent), currentActor.getStore() ?? NO_ACTOR);
  // No files were given, so the use case answers with the empty-folder variant (spec 4.1).
  if (!('folderUrlBase' in created))
    throw new Error('create use case returned the direct-upload variant for an empty request');
  return created;
}

/**
 * Reads a folder request from plain text, e.g. "create a share folder called Holiday photos" or
 * "make a folder named 'Q3 reports' in send mode". Only the two things an agent may ask for are
 * looked for; anything else in the text is ignored. A mode word is only taken when it is clearly a
 * mode ("share folder", "in share mode", "mode: share"), so "please send me a folder" stays default;
 * words that are not modes are ignored here (a data part is the way to be exact).
 */
export function parseTextIntent(text: string): FolderIntent {
  const intent: { title?: string; mode?: string } = {};
  const modeMatch =
    /\b(?:in|with|using)\s+(?:the\s+)?["']?(send|share|request)["']?\s+mode\b/i.exec(text) ??
    /\bmode\s*(?:[:=]|is|of)?\s*["']?(send|share|request)\b/i.exec(text) ??
    /\b(send|share|request)(?:-mode)?\s+(?:folder|webfolder)\b/i.exec(text);
  if (modeMatch) intent.mode = modeMatch[1]!.toLowerCase();

  const titleMatch =
    /\b(?:called|named|titled|title[d]?\s*[:=]?|with\s+(?:the\s+)?(?:title|name))\s*[:=]?\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|(.+?))\s*(?:,?\s+(?:in|with|using)\s+(?:the\s+)?["']?[a-z]+["']?\s+mode\b.*)?[.!?]*\s*$/is.exec(
      text.trim(),
    );
  if (titleMatch) {
    const title = (titleMatch[1] ?? titleMatch[2] ?? titleMatch[3] ?? titleMatch[4] ?? '').trim();
    if (title !== '') intent.title = title;
  }
  return intent;
}

/** Reads a folder request from a structured (data) part. Only `title` and `mode` are accepted. */
export function dataIntent(data: unknown): FolderIntent {
  return checkAgentRequest(data, 'the data part');
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
