import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { SiteNotifications, SiteNotificationsUpdate } from '../../contract/site.js';
import { siteLanguage } from '../../domain/site-languages.js';
import type { FolderNotifications } from '../../store/ops-store.js';
import { invalid, notFound } from '../errors.js';
import { emailStatus, requestConfirmation } from '../mail-consent.js';
import type { Services } from '../services.js';
import { type Caller, openAsOwner } from './access.js';

/**
 * The owner's notification settings for a folder (GET/PUT/DELETE …/notifications): tell me by
 * e-mail and/or at my own webhook when someone else downloads, or (share and request folders)
 * uploads a file. Only the owner may read or change them. The address and URL are kept with the
 * folder and deleted with it; the webhook's signing secret is made here and shown to the owner.
 */
export type NotificationSettings = SiteNotifications;

const NONE: NotificationSettings = {
  email: null,
  webhookUrl: null,
  webhookSecret: null,
  onDownload: false,
  onUpload: false,
  emailStatus: null,
};

const view = (n: FolderNotifications | null, status: NotificationSettings['emailStatus']): NotificationSettings =>
  n
    ? {
        email: n.email,
        webhookUrl: n.webhookUrl,
        webhookSecret: n.webhookSecret,
        onDownload: n.onDownload,
        onUpload: n.onUpload,
        emailStatus: status,
      }
    : NONE;

async function read(services: Services, folderId: string): Promise<NotificationSettings> {
  const n = await services.store.notificationSettings.getFolderNotifications(folderId);
  return view(n, await emailStatus(services, n?.email ?? null));
}

export async function getNotifications(
  services: Services,
  folderId: string,
  caller: Caller,
): Promise<NotificationSettings> {
  const folder = await openAsOwner(services, folderId, caller, 'notifications');
  return read(services, folder.id);
}

export async function setNotifications(
  services: Services,
  folderId: string,
  caller: Caller,
  /** Checked by its route against siteNotificationsUpdateSchema; what needs the operator's settings is checked here. */
  b: SiteNotificationsUpdate,
  ip: string,
): Promise<NotificationSettings> {
  const folder = await openAsOwner(services, folderId, caller, 'notifications');
  const stored = await services.store.notificationSettings.getFolderNotifications(folder.id);
  const current = view(stored, await emailStatus(services, stored?.email ?? null));
  // The owner's mails are in the page's language when it is one the site speaks (the page sends its
  // own); another tag is English (null). Without one, the stored language stays.
  const language = b.language === undefined ? (stored?.language ?? null) : siteLanguage(b.language);
  const email = b.email === undefined ? current.email : checkEmail(services, b.email);
  const webhookUrl = b.webhookUrl === undefined ? current.webhookUrl : checkWebhookUrl(services, b.webhookUrl);
  const onDownload = b.onDownload ?? current.onDownload;
  const onUpload = b.onUpload ?? current.onUpload;
  if (onUpload && folder.mode === 'send')
    throw invalid('onUpload is for share and request folders: only the owner uploads to a send folder');
  if ((onDownload || onUpload) && email === null && webhookUrl === null)
    throw invalid('give an email or a webhookUrl to be notified at');
  if (email === null && webhookUrl === null && !onDownload && !onUpload) {
    await services.store.notificationSettings.setFolderNotifications(folder.id, null);
    return NONE;
  }
  // A new URL gets a new secret; the same URL keeps its secret (receivers keep verifying).
  const webhookSecret =
    webhookUrl === null
      ? null
      : webhookUrl === current.webhookUrl && current.webhookSecret
        ? current.webhookSecret
        : `whsec_${randomBytes(24).toString('base64')}`;
  const settings: FolderNotifications = {
    email,
    webhookUrl,
    webhookSecret,
    onDownload,
    onUpload,
    language,
    updatedAt: services.clock(),
  };
  // An address that has not confirmed gets a confirmation mail (once, within limits) and nothing
  // else until it does (src/app/mail-consent.ts). Asked before storing: a caller over its limit
  // (429) changes nothing.
  const status =
    email === null
      ? null
      : b.email !== undefined
        ? await requestConfirmation(services, email, ip, b.language ?? null)
        : current.emailStatus;
  if (!(await services.store.notificationSettings.setFolderNotifications(folder.id, settings)))
    throw notFound('folder not found: it may have expired or been deleted');
  return view(settings, status);
}

export async function clearNotifications(services: Services, folderId: string, caller: Caller): Promise<void> {
  const folder = await openAsOwner(services, folderId, caller, 'notifications');
  await services.store.notificationSettings.setFolderNotifications(folder.id, null);
}

function checkEmail(services: Services, value: string | null): string | null {
  if (value === null) return null;
  if (!services.config.notifications.smtpUrl)
    throw invalid('this server does not send e-mail (its operator set no SMTP_URL)');
  return value;
}

function checkWebhookUrl(services: Services, value: string | null): string | null {
  if (value === null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('webhookUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('webhookUrl must be an absolute http(s) URL');
  if (url.username || url.password) throw invalid('webhookUrl must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    !services.config.notifications.ownerWebhookAllowPrivate &&
    (isIP(host) || host === 'localhost' || host.endsWith('.localhost'))
  ) {
    // Names are checked again after DNS at every delivery (notify/http-post.ts); literal addresses
    // and localhost are refused here so the owner learns it at once.
    throw invalid('webhookUrl must name a public host, not an address or localhost');
  }
  return url.href;
}
