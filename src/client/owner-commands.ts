import { SITE_API_PATH } from '../contract/paths.js';
import {
  createSke,
  decryptText,
  deriveOwnerCredentials,
  encryptText,
  generateSecret,
  importSecret,
} from '../crypto/index.js';
import { ownerLink as ownerLinkOf, shareLink } from '../domain/links.js';
import { shownName } from '../domain/shown-names.js';
import { checkNote } from '../transfer/direct-upload.js';
import { InputError } from '../transfer/errors.js';
import { type ListedFile, listFolder } from '../transfer/folder.js';
import { SiteClient } from '../transfer/site-client.js';
import { parseShareLink } from '../transfer/state.js';
import { siteApiFor } from '../transfer/urls.js';
import {
  EXIT,
  expiresOf,
  type Flags,
  httpOf,
  type Io,
  maxDownloadsOf,
  ownerOf,
  passwordOf,
  serverOf,
  UsageError,
} from './cli-common.js';
import { defaultStateDir } from './node/index.js';
import { forgetOwned, saveOwned } from './node/owned.js';
import { formatBytes } from './progress.js';

/**
 * The owner's commands: `request` (a request folder whose owner key this machine keeps), `info`
 * (what the server says about a folder, with the files' names and download counts) and `delete`
 * (a file or the whole folder). Owner credentials come from `--upload-auth=`, an owner link, or this
 * machine's record of the folders it made (src/client/node/owned.ts).
 */

/** Options every listing of a link takes: the site, the owner's credentials, the password. */
async function openOptions(link: string, flags: Flags, io: Io) {
  return {
    ...(flags.server ? { site: serverOf(flags, io) } : {}),
    ...(await ownerOf(link, flags, io)),
    ...httpOf(flags, io),
    ...optional('password', passwordOf(flags, io, 'open')),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * `webfolder request [--title T] [--expires D]`: creates a request folder already owned by this
 * machine (create and claim in one step, `POST {site}/api/site/folders`), keeps its owner secret in
 * the state directory, and prints the link for visitors; `webfolder download <link>` later opens
 * what they sealed to the owner key. The owner link (second line) restores ownership in a browser.
 */
export async function requestCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length > 0) throw new UsageError('request takes no files: visitors upload into it in the browser');
  const server = serverOf(flags, io);
  const expires = expiresOf(flags);
  const ownerSecret = generateSecret();
  const owner = await deriveOwnerCredentials(ownerSecret);
  const secret = generateSecret();
  const ske = await createSke(await importSecret(secret));
  const created = await SiteClient.createFolder(
    `${server}${SITE_API_PATH}`,
    owner.authToken,
    {
      mode: 'request',
      ske,
      ownerPublicKey: owner.publicKey,
      ...(flags.title !== undefined ? { title: flags.title } : {}),
      // The create takes whole hours: a shorter duration is rounded up.
      ...(expires !== undefined ? { expiresInHours: Math.ceil(expires / 3_600_000) } : {}),
    },
    httpOf(flags, io),
  );
  const stateFile = await saveOwned(defaultStateDir(io.env), {
    folderId: created.folderId,
    folderUrl: created.folderUrl,
    ownerSecret,
    createdAt: Date.now(),
  });
  const link = shareLink(created.folderUrl, secret);
  const ownerLink = ownerLinkOf(created.folderUrl, secret, ownerSecret);
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ link, ownerLink, folderId: created.folderId, folderUrl: created.folderUrl, uploadDeadline: created.uploadDeadline, stateFile })}\n`,
    );
  } else {
    io.stdout.write(`${link}\nowner link: ${ownerLink}\n`);
    if (!flags.quiet)
      io.stderr.write(
        `request folder: give the first link to the people who should send you files; they upload in the browser, sealed to your owner key (kept in ${stateFile}). Get their files with: webfolder download <link>. The owner link opens the folder as its owner in a browser: keep it secret.\n`,
      );
  }
  return EXIT.OK;
}

/** `webfolder info <link>`: title, mode, expiry, limits, counts, and each file with its downloads. */
export async function infoCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('info takes a folder link: webfolder info <link>');
  const listing = await listFolder(args[0]!, await openOptions(args[0]!, flags, io));
  const { info } = listing;
  const files = listing.files.map((f) => ({
    fileId: f.fileId,
    name: f.key ? f.name : null,
    size: f.size,
    complete: f.complete,
    sealed: f.sealed,
    downloads: f.downloads,
    maxDownloads: f.maxDownloads,
    downloadsLeft: f.downloadsLeft,
  }));
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({
        folderId: info.folderId,
        title: info.title,
        mode: info.mode,
        isOwner: info.isOwner,
        createdBy: info.createdBy,
        expiresAt: info.expiresAt,
        uploadDeadline: info.uploadDeadline,
        maxExpiresInHours: info.maxExpiresInHours,
        maxDownloads: info.maxDownloads,
        password: info.password !== null,
        note: listing.note,
        fileCount: info.fileCount,
        totalSize: info.totalSize,
        files,
      })}\n`,
    );
    return EXIT.OK;
  }
  const lines = [
    `folder ${info.folderId}${info.title ? `: ${info.title}` : ''}`,
    `mode: ${info.mode}${info.isOwner ? ' (you are the owner)' : ''}`,
    info.expiresAt !== null
      ? `available until: ${when(info.expiresAt)}`
      : info.uploadDeadline !== null
        ? `empty: deleted at ${when(info.uploadDeadline)} unless someone uploads`
        : 'available until: not set',
    `download limit per file: ${info.maxDownloads ?? 'none'}`,
    `password: ${info.password ? 'yes' : 'no'}`,
    ...(listing.note !== null ? [`note: ${listing.note}`] : []),
    `files: ${info.fileCount}, ${formatBytes(info.totalSize)}`,
    ...listing.files.map((f) => `  ${fileLabel(f)}  ${formatBytes(f.size)}  ${downloadsText(f)}`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.OK;
}

/** A time as `2026-11-24 00:38 UTC`. */
function when(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
}

function fileLabel(f: ListedFile): string {
  if (!f.key) return `${f.fileId} (sealed to the owner)`;
  return `${f.name}${f.complete ? '' : ' (uploading)'}`;
}

function downloadsText(f: ListedFile): string {
  const count = `${f.downloads} download${f.downloads === 1 ? '' : 's'}`;
  return f.downloadsLeft === null ? count : `${count}, ${f.downloadsLeft} left`;
}

/**
 * `webfolder delete <link> [--file NAME|ID]`: deletes one file (by id, or by its decrypted name) or
 * the whole folder, as its owner. When the server answers, the bytes are gone.
 */
export async function deleteCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('delete takes a folder link: webfolder delete <link> [--file NAME|ID]');
  const link = args[0]!;
  const { folderId } = parseShareLink(link);
  const client = await ownerClient('delete', link, flags, io);
  if (flags.file === undefined) {
    await client.deleteFolder();
    await forgetOwned(defaultStateDir(io.env), folderId);
    if (flags.json) io.stdout.write(`${JSON.stringify({ deleted: 'folder', folderId })}\n`);
    else if (!flags.quiet) io.stdout.write(`deleted folder ${folderId} and all its files\n`);
    return EXIT.OK;
  }
  const target = await fileNamed(link, flags.file, client, flags, io);
  await client.deleteFile(target.fileId);
  if (flags.json) io.stdout.write(`${JSON.stringify({ deleted: 'file', folderId, fileId: target.fileId })}\n`);
  else if (!flags.quiet) io.stdout.write(`deleted ${target.label}\n`);
  return EXIT.OK;
}

/**
 * The site client of a folder, with its owner's credential (`--upload-auth=`, the owner link, or
 * what this machine kept when it made the folder); a UsageError naming `command` without one.
 */
export async function ownerClient(command: string, link: string, flags: Flags, io: Io): Promise<SiteClient> {
  const { folderUrl, folderId } = parseShareLink(link);
  const owner = await ownerOf(link, flags, io);
  if (!owner.uploadAuth && !owner.ownerSecret)
    throw new UsageError(
      `${command} needs the folder owner's credential: this machine has none for this folder; give --upload-auth=TOKEN or the owner link`,
    );
  const site = flags.server ? serverOf(flags, io) : undefined;
  const ownerToken = owner.ownerSecret ? (await deriveOwnerCredentials(owner.ownerSecret)).authToken : undefined;
  return new SiteClient(
    siteApiFor(folderUrl, site),
    folderId,
    { uploadAuth: owner.uploadAuth, ownerToken },
    httpOf(flags, io),
  );
}

/** `--file`: a file id of the folder as it is, else a decrypted name (the whole name, or its last segment). */
async function fileNamed(
  link: string,
  wanted: string,
  client: SiteClient,
  flags: Flags,
  io: Io,
): Promise<{ fileId: string; label: string }> {
  // By id first: that needs neither the names nor a password.
  if ((await client.listAll()).some((f) => f.fileId === wanted)) return { fileId: wanted, label: `file ${wanted}` };
  const listing = await listFolder(link, await openOptions(link, flags, io));
  const readable = listing.files.filter((f) => f.key);
  let matches = readable.filter((f) => f.name === wanted);
  if (matches.length === 0) matches = readable.filter((f) => f.name.split('/').pop() === wanted);
  if (matches.length === 1) return { fileId: matches[0]!.fileId, label: matches[0]!.name };
  if (matches.length === 0) throw new InputError(`no file named or with the id "${wanted}" in this folder`);
  throw new InputError(
    `${matches.length} files are named "${wanted}": give the id instead (${matches.map((f) => `${f.name}: ${f.fileId}`).join(', ')})`,
  );
}

/**
 * `webfolder set <link> [--expires D] [--max-downloads N|none] [--note T|none] [--file NAME|ID]`: the
 * owner changes what the page's settings change. Without --file: the expiry of every file (from now,
 * up to the server's maximum), the folder's download limit per file, the note to recipients
 * (encrypted under the folder key like the names). With --file: that file's own download limit
 * (none: the folder's applies again). Every value is checked before anything is sent.
 */
export async function setCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1)
    throw new UsageError('set takes a folder link: webfolder set <link> [--expires D] [--max-downloads N] [--note T]');
  const link = args[0]!;
  const { folderId } = parseShareLink(link);
  const expires = expiresOf(flags);
  const limit = flags['max-downloads'] === 'none' ? null : maxDownloadsOf(flags);
  const note = flags.note === undefined ? undefined : flags.note === 'none' ? null : flags.note.trim();
  if (note === '') throw new UsageError('--note is empty: to remove the note, give --note none');
  if (note) checkNote(note);
  if (flags.file !== undefined) {
    if (expires !== undefined || note !== undefined)
      throw new UsageError(
        "with --file, set changes only that file's --max-downloads (expiry and note are the folder's)",
      );
    if (limit === undefined) throw new UsageError("set --file needs --max-downloads N (or none: the folder's limit)");
  } else if (expires === undefined && limit === undefined && note === undefined) {
    throw new UsageError('set needs at least one of --expires, --max-downloads, --note');
  }
  const client = await ownerClient('set', link, flags, io);
  if (flags.file !== undefined) {
    const target = await fileNamed(link, flags.file, client, flags, io);
    const file = await client.updateFile(target.fileId, { maxDownloads: limit! });
    if (flags.json)
      io.stdout.write(`${JSON.stringify({ folderId, fileId: target.fileId, maxDownloads: file.maxDownloads })}\n`);
    else if (!flags.quiet)
      io.stdout.write(`${target.label}: download limit ${limit === null ? "the folder's" : limit}\n`);
    return EXIT.OK;
  }
  // The note is encrypted under the folder key, which takes the link's secret (and its password).
  const encryptedNote = note
    ? await encryptText((await listFolder(link, await openOptions(link, flags, io))).key, note)
    : note;
  const info = await client.updateFolder({
    ...(expires !== undefined ? { expiresAt: Date.now() + expires } : {}),
    ...(limit !== undefined ? { maxDownloads: limit } : {}),
    ...(encryptedNote !== undefined ? { note: encryptedNote } : {}),
  });
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ folderId, expiresAt: info.expiresAt, maxDownloads: info.maxDownloads, note: info.note !== null })}\n`,
    );
  } else if (!flags.quiet) {
    const said = [
      expires !== undefined && info.expiresAt !== null && `available until ${when(info.expiresAt)}`,
      limit !== undefined && `download limit per file: ${info.maxDownloads ?? 'none'}`,
      note !== undefined && (note === null ? 'note removed' : 'note set'),
    ].filter(Boolean);
    io.stdout.write(`${said.join('; ')}\n`);
  }
  return EXIT.OK;
}

/**
 * `webfolder activity <link>`: the folder's newest uploads, downloads and deletions (owner only; the
 * server keeps no address unless its operator turned that on). File names are decrypted when the
 * link opens them; a file deleted since shows its id.
 */
export async function activityCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('activity takes a folder link: webfolder activity <link>');
  const link = args[0]!;
  const client = await ownerClient('activity', link, flags, io);
  const { events } = await client.activity();
  const listing = await listFolder(link, await openOptions(link, flags, io));
  const names = new Map(listing.files.filter((f) => f.key).map((f) => [f.fileId, f.name]));
  // A deleted file is named by its deletion's line: the stored (encrypted) name, under the folder's
  // key (a request-mode file's name is sealed to the owner's key: the page opens it, the CLI not yet).
  for (const e of events)
    if (e.filename !== null && e.sealedKey === null && !names.has(e.fileId)) {
      const name = await decryptText(listing.key, e.filename).catch(() => null);
      if (name !== null) names.set(e.fileId, shownName(name));
    }
  const rows = events.map(({ at, kind, fileId, ip }) => ({ at, kind, fileId, ip, name: names.get(fileId) ?? null }));
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ folderId: listing.folderId, events: rows })}\n`);
    return EXIT.OK;
  }
  if (rows.length === 0) {
    io.stdout.write('no activity yet\n');
    return EXIT.OK;
  }
  const lines = rows.map(
    (e) => `${when(e.at)}  ${e.kind.padEnd(8)}  ${e.name ?? `file ${e.fileId}`}${e.ip ? `  from ${e.ip}` : ''}`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.OK;
}
