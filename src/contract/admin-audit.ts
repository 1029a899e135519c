import type { FromSchema } from 'json-schema-to-ts';
import { AUDIT_ACTIONS, AUDIT_PAGE_MAX } from '../domain/audit.js';
import { ID_PATTERN } from '../domain/links.js';

/**
 * The audit and quota part of the admin API (src/http/routes/admin-audit.ts, admin-accounts.ts): query strings,
 * parameters and bodies as JSON Schemas for the one validation layer, and the answers' schemas.
 * Query values arrive as text (no coercion): numbers and times are patterns here, parsed once checked.
 */
const once = (pattern: string, message: string) =>
  ({ type: 'string', pattern, errorMessage: { type: 'must be given once', pattern: message } }) as const;

/** An account id as the sign-in store makes them: opaque, one line, bounded. */
const ACCOUNT_ID = '^[A-Za-z0-9_.:@-]{1,128}$';
/** A time: an ISO 8601 date-time (`2026-11-26T18:00:00Z`) or a date (`2026-11-26`, midnight UTC). */
const TIME = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$';

const filterProperties = {
  action: {
    type: 'string',
    enum: AUDIT_ACTIONS,
    errorMessage: `must be one of ${AUDIT_ACTIONS.join(', ')}`,
  },
  account: once(ACCOUNT_ID, 'is malformed: an account id'),
  folder: once(ID_PATTERN.source, 'is malformed: a folder id'),
  since: once(TIME, 'must be a date or an ISO 8601 date-time with a zone, e.g. 2026-11-26T18:00:00Z'),
  until: once(TIME, 'must be a date or an ISO 8601 date-time with a zone, e.g. 2026-11-26T18:00:00Z'),
} as const;

/** `GET /api/admin/audit?action=&account=&folder=&since=&until=&cursor=&limit=` */
export const auditListQuery = {
  type: 'object',
  properties: {
    ...filterProperties,
    cursor: once('^\\d{1,15}$', 'is malformed: pass nextCursor as it was given'),
    // 1 to 499, or exactly the maximum (500).
    limit: once('^([1-9]\\d?|[1-4]\\d\\d|500)$', `must be a whole number between 1 and ${AUDIT_PAGE_MAX}`),
  },
} as const;
export type AuditListQuery = FromSchema<typeof auditListQuery>;

/** `GET /api/admin/audit.jsonl?action=&account=&folder=&since=&until=`: every matching entry. */
export const auditExportQuery = { type: 'object', properties: filterProperties } as const;
export type AuditExportQuery = FromSchema<typeof auditExportQuery>;

export const accountParams = {
  type: 'object',
  additionalProperties: false,
  required: ['accountId'],
  properties: { accountId: once(ACCOUNT_ID, 'is malformed') },
} as const;

/** `PUT /api/admin/accounts/:accountId/quota`: bytes, or null for the instance's default. */
export const quotaBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bytes'],
  properties: {
    bytes: {
      type: ['integer', 'null'],
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      errorMessage: 'must be a whole number of bytes (0 or more), or null for the default quota',
    },
  },
} as const;
export type QuotaBody = FromSchema<typeof quotaBodySchema>;

/** `GET /api/admin/accounts?cursor=&limit=`: accounts in id order, a page at a time. */
export const accountsListQuery = {
  type: 'object',
  properties: {
    cursor: once(ACCOUNT_ID, 'is malformed: pass nextCursor as it was given'),
    limit: once('^([1-9]\\d?|[1-4]\\d\\d|500)$', 'must be a whole number between 1 and 500'),
  },
} as const;
export type AccountsListQuery = FromSchema<typeof accountsListQuery>;

const accountUsageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['accountId', 'email', 'name', 'lastSeenAt', 'usedBytes', 'quotaBytes'],
  properties: {
    accountId: { type: 'string' },
    email: { type: ['string', 'null'] },
    name: { type: ['string', 'null'] },
    lastSeenAt: { type: ['string', 'null'] },
    usedBytes: { type: 'integer' },
    quotaBytes: { type: ['integer', 'null'] },
  },
} as const;

export const accountAnswer = accountUsageSchema;
export const accountsListAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['accounts', 'defaultQuotaBytes', 'nextCursor'],
  properties: {
    accounts: { type: 'array', items: accountUsageSchema },
    defaultQuotaBytes: { type: ['integer', 'null'] },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

const text = { type: ['string', 'null'] } as const;
const detailValue = { type: ['string', 'number', 'boolean', 'null'] } as const;

/** One entry as the listing and the export show it (src/app/audit.ts auditView). */
export const auditEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'at', 'action', 'actor', 'folderId', 'clientHash', 'detail'],
  properties: {
    id: { type: 'string' },
    at: { type: 'string' },
    action: { type: 'string' },
    actor: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'accountId', 'email', 'name', 'via'],
      properties: {
        kind: { type: 'string', enum: ['anonymous', 'account'] },
        accountId: text,
        email: text,
        name: text,
        via: text,
      },
    },
    folderId: text,
    clientHash: text,
    detail: { type: 'object', additionalProperties: detailValue },
  },
} as const;

export const auditListAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['entries', 'nextCursor'],
  properties: {
    entries: { type: 'array', items: auditEntrySchema },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;
