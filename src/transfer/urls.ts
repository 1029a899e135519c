import { chunkName, SITE_API_PATH } from '../contract/paths.js';
import type { UploadUrls } from '../contract/types.js';
import { siteOfLink } from '../domain/links.js';

/**
 * The addresses a client builds, each rule written once: the file.kiwi chunk upload URL, the site's
 * chunk download URL, and where the API and the site's endpoints live.
 */

/**
 * The file.kiwi chunk URL rule, unchanged for S3 presigned URLs and the local backend:
 * `head + path + "/" + NNNNN + "?" + tail + "&X-Amz-Signature=" + signatures[n-1]`.
 */
export function chunkUrl(urls: UploadUrls, n: number): string {
  const signature = urls.signatures[n - 1];
  if (signature === undefined)
    throw new RangeError(`chunk ${n} has no signature (the file has ${urls.signatures.length} chunks)`);
  return `${urls.head}${urls.path}/${chunkName(n)}?${urls.tail}&X-Amz-Signature=${signature}`;
}

/** An API address: the base (with or without a trailing slash) and a path. */
export function apiUrl(server: string, path: string): string {
  return `${server.replace(/\/+$/, '')}${path}`;
}

/** The site endpoints of one folder: `<siteApi>/folders/<id>`. */
export function folderApiUrl(siteApi: string, folderId: string): string {
  return `${siteApi.replace(/\/+$/, '')}/folders/${encodeURIComponent(folderId)}`;
}

/** The site's download address of chunk n of a file. */
export function siteChunkUrl(siteApi: string, folderId: string, fileId: string, n: number): string {
  return `${folderApiUrl(siteApi, folderId)}/files/${encodeURIComponent(fileId)}/chunks/${chunkName(n)}`;
}

/**
 * The site API address for a share link: `site` when given (WEB_URL differs from the link), else
 * the part of the link before `/f/<folderId>`.
 */
export function siteApiFor(link: string, site?: string): string {
  return `${site ? site.replace(/\/+$/, '') : siteOfLink(link)}${SITE_API_PATH}`;
}
