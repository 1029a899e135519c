/**
 * The page's one entry into the code it shares with the library, the CLI and the server: the
 * transfer core (src/transfer), the cryptography (src/crypto), and the contract's types and the
 * domain's limits it shows. Everything in web/src imports them from here and nowhere else
 * (test/unit/layers.test.ts), so what the page depends on is one list.
 */
export type { AccountView, ApiKeyView } from '../../src/contract/account.js';
export type { AccountFolder, AccountFolderList } from '../../src/contract/account-folders.js';
export type {
  AdminFolderDetail,
  AdminFolderList,
  AdminFolderView,
  AdminStats,
  TakeDownInfo,
} from '../../src/contract/admin.js';
export type { ErrorCode } from '../../src/contract/errors.js';
export { ACCOUNTS_API_PATH, AUDIT_API_PATH, SITE_API_PATH } from '../../src/contract/paths.js';
export type {
  FolderInfo,
  SiteActivity,
  SiteFile,
  SiteFileEntry,
  SiteFolderUpdate,
  SiteNotifications,
  SiteNotificationsUpdate,
  SiteRegisteredFile,
  SiteSettings,
} from '../../src/contract/site.js';
export {
  base64UrlEncode,
  CryptoFormatError,
  checkSke,
  createSke,
  decryptChunk,
  decryptText,
  deriveOwnerCredentials,
  encryptChunk,
  encryptChunkParts,
  encryptText,
  type FolderKey,
  generateSecret,
  IntegrityError,
  importSecret,
  newPasswordParams,
  type OwnerCredentials,
  openSealedSecret,
  passwordSecret,
  sealSecret,
} from '../../src/crypto/index.js';
export { AUDIT_ACTIONS } from '../../src/domain/audit.js';
export { encryptedLength } from '../../src/domain/chunk-plan.js';
export { escapeHtml } from '../../src/domain/html.js';
export {
  MAX_DOWNLOAD_LIMIT,
  MAX_NOTE_CHARS,
  MAX_THUMBNAIL_BYTES,
  MAX_TITLE_LENGTH,
} from '../../src/domain/limits.js';
export {
  type Fragment,
  fragmentOf,
  parseFragment,
  type SitePage,
  sitePageOf,
  sitePagePath,
} from '../../src/domain/links.js';
export { shownName } from '../../src/domain/shown-names.js';
export { formatBytes as formatSize } from '../../src/domain/sizes.js';
export { TAKE_DOWN_NOTE_MAX, TAKE_DOWN_REASONS, type TakeDownReason } from '../../src/domain/take-down.js';
export * from '../../src/transfer/index.js';
