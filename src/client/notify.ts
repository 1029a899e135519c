import type { SiteNotifications, SiteNotificationsUpdate } from '../contract/site.js';
import { NetworkError, WebfolderError } from '../transfer/errors.js';
import { parseShareLink } from '../transfer/state.js';
import { folderApiUrl, siteApiFor } from '../transfer/urls.js';

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

function endpoint(options: NotifyOptions): string {
  // The secret is not needed here; a link without one is fine.
  const link = options.link.includes('#') ? options.link : `${options.link}#-`;
  const { folderId } = parseShareLink(link);
  return `${folderApiUrl(siteApiFor(link, options.site), folderId)}/notifications`;
}

async function call(options: NotifyOptions, method: 'GET' | 'PUT' | 'DELETE', body?: NotificationChange) {
  const url = endpoint(options);
  const operation = `${method} notifications`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        'x-upload-auth': options.uploadAuth,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      redirect: 'error',
    });
  } catch (error) {
    throw new NetworkError(operation, error);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text.slice(0, 200);
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      /* not the JSON error shape */
    }
    throw new WebfolderError(res.status, message, operation);
  }
  return text ? (JSON.parse(text) as NotificationSettings) : null;
}

export async function getNotifications(options: NotifyOptions): Promise<NotificationSettings> {
  return (await call(options, 'GET'))!;
}

export async function setNotifications(
  options: NotifyOptions,
  change: NotificationChange,
): Promise<NotificationSettings> {
  return (await call(options, 'PUT', change))!;
}

export async function clearNotifications(options: NotifyOptions): Promise<void> {
  await call(options, 'DELETE');
}
