import type { FromSchema } from 'json-schema-to-ts';
import { API_KEY_PATTERN } from '../domain/principal.js';

/**
 * The account part of the site API (src/http/routes/auth.ts, account-keys.ts): who is
 * signed in, and the signed-in person's API keys. Paths are relative to WEB_URL, beside the site's.
 */
export const AUTH_PATHS = {
  login: '/auth/login',
  callback: '/auth/callback',
  logout: '/auth/logout',
} as const;
export const ACCOUNT_PATH = '/api/account';
/** The JSON endpoint of the signed-in person's API keys. */
export const ACCOUNT_KEYS_PATH = '/api/account/keys';

const text = { type: ['string', 'null'] } as const;

/** `GET /api/account`: whether sign-in exists here, who may make folders, and who is signed in. */
export const accountViewSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['signInAvailable', 'createPolicy', 'account'],
  properties: {
    signInAvailable: { type: 'boolean' },
    /** What the site asks of someone who makes a folder. */
    createPolicy: { type: 'string', enum: ['anyone', 'signed-in'] },
    account: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'email', 'name', 'admin', 'via'],
          properties: {
            id: { type: 'string' },
            email: text,
            name: text,
            admin: { type: 'boolean' },
            via: { type: 'string', enum: ['session', 'api-key'] },
          },
        },
      ],
    },
  },
} as const;
export type AccountView = FromSchema<typeof accountViewSchema>;

/** One API key as listed: never the key itself, which is shown once, at creation. */
export const apiKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'createdAt', 'lastUsedAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    /** Epoch milliseconds. */
    createdAt: { type: 'number' },
    lastUsedAt: { type: ['number', 'null'] },
  },
} as const;
export type ApiKeyView = FromSchema<typeof apiKeySchema>;

export const apiKeyListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['keys'],
  properties: { keys: { type: 'array', items: apiKeySchema } },
} as const;

/** `POST /api/account/keys {name}`. */
export const apiKeyCreateRequest = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 60,
      pattern: '\\S',
      errorMessage: { pattern: 'must not be blank', maxLength: 'must be at most 60 characters' },
    },
  },
} as const;

/** The answer of a create: the key, this once (`wfk_` and 43 characters), and its listing. */
export const apiKeyCreatedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'apiKey'],
  properties: {
    key: apiKeySchema,
    apiKey: { type: 'string', pattern: API_KEY_PATTERN.source },
  },
} as const;
export type ApiKeyCreated = FromSchema<typeof apiKeyCreatedSchema>;

/** `DELETE /api/account/keys/:keyId`. */
export const apiKeyParams = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId'],
  properties: { keyId: { type: 'string', pattern: '^[A-Za-z0-9_-]{16}$', errorMessage: 'is malformed: a key id' } },
} as const;
