import { MODES } from '../domain/modes.js';
import { accountViewSchema, apiKeyCreatedSchema, apiKeyListSchema } from './account.js';
import { takeDownAnswer } from './admin.js';
import { int, intOrNull, object, strOrNull } from './schema-parts.js';
import { uploadStatusResponseSchema } from './schemas.js';

/**
 * The answers of the browser site's endpoints, one JSON Schema each: what the routes write, what
 * every client checks (./answers.ts, made tolerant there), and the answers' types (./site.ts). Each
 * field's meaning is stated here, once. No `format` and no length keywords: the page's copy of
 * these validators is generated ahead of time (web/vite.config.ts, the page's CSP forbids compiling
 * code at run time) and must need no run-time helper module.
 */
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const mode = { type: 'string', enum: MODES } as const;
const role = { type: 'string', enum: ['owner', 'visitor'] } as const;

const uploadUrls = object({
  head: str,
  tail: str,
  path: str,
  signatures: { type: 'array', items: str },
  headers: { type: 'object', additionalProperties: str },
});

const activityKind = { type: 'string', enum: ['upload', 'download', 'delete'] } as const;

const registeredFile = object({ fileId: str, chunkSize: int, chunks: int, uploadUrls });

/** A live file of the folder, as listed to a caller allowed to list. */
const siteFile = object({
  fileId: str,
  /** Encrypted name, as the uploader sent it. */
  filename: str,
  mimetype: strOrNull,
  filesize: int,
  chunkSize: int,
  chunks: int,
  complete: bool,
  /**
   * Chunks stored so far (`chunks` once complete): the progress of a file still arriving, which a
   * visitor can download at once (the chunks not stored yet are waited for).
   */
  storedChunks: int,
  /**
   * Not complete, and the browser that sent it stopped (it said so, or its heartbeat ran out:
   * src/domain/sending.ts): nothing more arrives unless it resumes.
   */
  stopped: bool,
  createdAt: int,
  expiresAt: int,
  sealedKey: strOrNull,
  /** Whether the caller uploaded it (so may resume it). */
  mine: bool,
  /** Downloads counted so far (the owner's own are not counted). */
  downloads: int,
  /** The file's own limit; null: the folder's applies (see downloadsLeft). */
  maxDownloads: intOrNull,
  /** Downloads left under the effective limit (the file's, else the folder's); null: no limit. */
  downloadsLeft: intOrNull,
});

/** How a folder's password is stretched (src/domain/password-params.ts). */
const passwordParams = object({ kdf: { type: 'string', const: 'scrypt' }, N: int, r: int, p: int, salt: str });

/** What the folder page needs to render, for the calling browser. */
const folderInfo = object({
  folderId: str,
  mode,
  title: str,
  createdAt: int,
  /** Empty folders only: when the folder is deleted unless someone uploads (epoch ms); else null. */
  uploadDeadline: intOrNull,
  /** Whether someone has claimed the folder (by uploading first). */
  owned: bool,
  /** Whether the caller presented the owner's credential. */
  isOwner: bool,
  role,
  /** What the server will let this caller do (src/domain/modes.ts ACTIONS). */
  rights: object({ upload: bool, list: bool, download: bool }),
  /** Key check: lets the page tell a wrong key before downloading anything. Null until set. */
  ske: strOrNull,
  /** Request mode: the public key visitors seal their file secrets to. */
  ownerPublicKey: strOrNull,
  /** Plaintext chunk size new uploads get (bytes). */
  chunkSize: int,
  /**
   * When the folder's files stop being available (epoch ms): the owner's choice, else the latest
   * expiry of its files; null for a folder without files (it has `uploadDeadline`) and no choice.
   */
  expiresAt: intOrNull,
  /** The operator's maximum for a chosen expiry, in hours from now (MAX_EXPIRES_HOURS). */
  maxExpiresInHours: { type: 'number' },
  /** The folder's default download limit per file; null: no limit. */
  maxDownloads: intOrNull,
  /** The note to recipients, encrypted by the client with the folder key like the names; opaque. */
  note: strOrNull,
  /** The password's key derivation parameters when the folder has one (src/crypto/password.ts). */
  password: { anyOf: [{ type: 'null' }, passwordParams] },
  /** Live files (complete or not) and their plaintext bytes. */
  fileCount: int,
  totalSize: int,
  /** Where the folder was made: on the site (created and claimed in one step) or through the API. */
  createdBy: { type: 'string', enum: ['site', 'api'] },
});

/** The owner's notification settings of a folder (GET/PUT …/folders/<id>/notifications). */
const notifications = object({
  email: strOrNull,
  webhookUrl: strOrNull,
  /** Standard Webhooks secret (`whsec_…`) the folder's webhook calls are signed with; null without a URL. */
  webhookSecret: strOrNull,
  onDownload: bool,
  onUpload: bool,
  /**
   * Whether `email` may be mailed: `pending` until the address follows the link in the one
   * confirmation mail it is sent, `refused` when it asked for no mail from this instance; null
   * without an address. Notifications go only to a `confirmed` address.
   */
  emailStatus: { type: ['string', 'null'], enum: ['confirmed', 'pending', 'refused', null] },
});

/**
 * The site's answers as its routes write them (their response schemas, src/http/routes/site*.ts):
 * strict, so the serialiser writes exactly the stated fields and the handlers are typed by them.
 */
export const siteAnswerSchemas = {
  /**
   * 201 answer of the site's create: the page address has no fragment (the client adds its secret);
   * `uploadDeadline`: when the folder is deleted unless a file is uploaded (epoch ms).
   */
  siteCreateFolder: object({ folderId: str, folderUrl: str, uploadDeadline: int }),
  folderInfo,
  /** A registration's answer; `claimed`: this request made the caller the owner. */
  register: object({ role, claimed: bool, files: { type: 'array', items: registeredFile } }),
  registeredFile,
  /**
   * One page of a folder's files (`GET .../files?cursor=&limit=`), in upload order. `nextCursor` is
   * null on the last page; otherwise pass it as `cursor` for the next one.
   */
  fileList: object({ files: { type: 'array', items: siteFile }, nextCursor: strOrNull }),
  siteFile,
  fileProgress: uploadStatusResponseSchema,
  notifications,
  /** `GET <site>/api/site/folders/<id>/activity` (owner): newest first, at most 100. */
  activity: object({
    events: {
      type: 'array',
      items: object({
        at: int,
        kind: activityKind,
        fileId: str,
        /** The client address, only when the operator turned that on (ACTIVITY_IPS); else null. */
        ip: strOrNull,
        /**
         * On a deletion: the file's name as it was stored (encrypted by the uploading browser; the
         * owner's page decrypts it with the folder key) and, in request mode, the file's sealed key.
         * Null on other lines and on deletions recorded before the server kept them.
         */
        filename: strOrNull,
        sealedKey: strOrNull,
      }),
    },
  }),
  /**
   * `POST …/files/<fileId>/downloads`: one download started. The ticket opens the file's chunks for
   * 24 hours (`X-Download-Ticket` or `?ticket=`); `downloads` is the count after this one, and
   * `maxDownloads` the file's effective limit (its own, else the folder's; null: none).
   */
  downloadTicket: object({ ticket: str, expiresAt: int, downloads: int, maxDownloads: intOrNull }),
  /** A chunk download answered as object storage's presigned address (asked with Accept: JSON). */
  chunkLocation: object({ url: str }),
  /** Why a folder was taken down (src/contract/admin.ts). */
  takeDown: takeDownAnswer,
  /** Who is signed in, and their API keys (./account.ts). */
  accountView: accountViewSchema,
  apiKeyList: apiKeyListSchema,
  apiKeyCreated: apiKeyCreatedSchema,
  /** "My folders" (./account-folders.ts). */
  accountFolders: object({
    folders: {
      type: 'array',
      items: object({
        folderId: str,
        title: str,
        mode,
        createdAt: int,
        /** When the files stop being available (as the folder info's), or null for a folder without files. */
        expiresAt: intOrNull,
        /** When the folder is deleted (an empty folder: its upload deadline). */
        deleteAfter: int,
        fileCount: int,
        /** Plaintext bytes of its files. */
        totalSize: int,
        /** Counted downloads of its files (the owner's own are not counted). */
        downloads: int,
        /** The folder's download limit per file, or null. */
        maxDownloads: intOrNull,
        /**
         * What the folder is doing, as the list shows it; `taken-down`: the operator took it down
         * (nothing of it is served, and its controls answer 404 taken_down).
         */
        state: { type: 'string', enum: ['empty', 'uploading', 'ready', 'taken-down'] },
        /** The newest line of its activity (upload, download, delete), or null. */
        lastActivity: { anyOf: [{ type: 'null' }, object({ at: int, kind: activityKind })] },
        /** The folder's page on this site, without the key (the fragment): the server never has it. */
        folderUrl: str,
        /** Whether a password protects it (the page cannot open it without that either). */
        password: bool,
      }),
    },
    nextCursor: strOrNull,
  }),
} as const;
