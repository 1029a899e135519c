import type { SiteNotifications, SiteNotificationsUpdate } from '../contract/site.js';
import { SiteClient } from '../transfer/site-client.js';
import { parseShareLink } from '../transfer/state.js';
import { siteApiFor } from '../transfer/urls.js';

/**
 * The owner's notification settings of a folder, from a program or the CLI (`webfolder notify`):
 * be told by e-mail and/or at a webhook when someone else downloads or (share and request folders)
 * uploads. The owner proves itself with the direct upload's `uploadAuth` (X-Upload-Auth), or a
 * browser owner's credential. See docs/deployment.md#owners-notifications.
 */
export type NotificationSettings = SiteNotifications;

/** The properties given change, the others stay (the site contract's PUT body). */
export type NotificationChange = SiteNotificationsUpdate;

export interface NotifyOptions {
  /** The share link (with or without its `#` secret, which is never sent). */
  readonly link: string;
  readonly uploadAuth: string;
  /** The site's address when it differs from the link's (WEB_URL); default: the link's. */
  readonly site?: string;
}

/** The folder's site client with the owner's `uploadAuth`: the one implementation of these calls. */
function clientOf(options: NotifyOptions): SiteClient {
  // The secret is not needed here; a link without one is fine.
  const link = options.link.includes('#') ? options.link : `${options.link}#-`;
  const { folderId } = parseShareLink(link);
  return new SiteClient(siteApiFor(link, options.site), folderId, { uploadAuth: options.uploadAuth });
}

export function getNotifications(options: NotifyOptions): Promise<NotificationSettings> {
  return clientOf(options).notifications();
}

export function setNotifications(options: NotifyOptions, change: NotificationChange): Promise<NotificationSettings> {
  return clientOf(options).setNotifications(change);
}

export function clearNotifications(options: NotifyOptions): Promise<void> {
  return clientOf(options).clearNotifications();
}

/**
 * What the owner must know about the address: it is mailed only once it followed the link
 * of its one confirmation mail, and never once it refused this server's mail. '' when confirmed.
 */
export function emailStatusLine(settings: NotificationSettings): string {
  if (!settings.email) return '';
  if (settings.emailStatus === 'pending')
    return `e-mail not confirmed yet: follow the link in the mail sent to ${settings.email}\n`;
  if (settings.emailStatus === 'refused') return `e-mail refused: ${settings.email} asked this server for no mail\n`;
  return '';
}
