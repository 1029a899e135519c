import { createSke, deriveOwnerCredentials, generateSecret, importSecret } from '../crypto/index.js';
import { InputError } from '../transfer/errors.js';
import { type ListedFile, listFolder } from '../transfer/folder.js';
import { SiteClient } from '../transfer/site-client.js';
import { parseShareLink, shareLink } from '../transfer/state.js';
import { siteApiFor } from '../transfer/urls.js';
import {
  EXIT,
  expiresOf,
  type Flags,
  httpOf,
  type Io,
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
    ...httpOf(flags),
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
    `${server}/api/site`,
    owner.authToken,
    {
      mode: 'request',
      ske,
      ownerPublicKey: owner.publicKey,
      ...(flags.title !== undefined ? { title: flags.title } : {}),
      // The create takes whole hours: a shorter duration is rounded up.
      ...(expires !== undefined ? { expiresInHours: Math.ceil(expires / 3_600_000) } : {}),
    },
    httpOf(flags),
  );
  const stateFile = await saveOwned(defaultStateDir(io.env), {
    folderId: created.folderId,
    folderUrl: created.folderUrl,
    ownerSecret,
    createdAt: Date.now(),
  });
  const link = shareLink(created.folderUrl, secret);
  const ownerLink = `${link}&owner=${ownerSecret}`;
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
        fileCount: info.fileCount,
        totalSize: info.totalSize,
        files,
      })}\n`,
    );
    return EXIT.OK;
  }
  const when = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace(/:\d\d\.\d{3}Z$/, ' UTC')
      .replace('T', ' ');
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
    `files: ${info.fileCount}, ${formatBytes(info.totalSize)}`,
    ...listing.files.map((f) => `  ${fileLabel(f)}  ${formatBytes(f.size)}  ${downloadsText(f)}`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.OK;
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
  const { folderUrl, folderId } = parseShareLink(link);
  const owner = await ownerOf(link, flags, io);
  if (!owner.uploadAuth && !owner.ownerSecret)
    throw new UsageError(
      "delete needs the folder owner's credential: this machine has none for this folder; give --upload-auth=TOKEN or the owner link",
    );
  const site = flags.server ? serverOf(flags, io) : undefined;
  const ownerToken = owner.ownerSecret ? (await deriveOwnerCredentials(owner.ownerSecret)).authToken : undefined;
  const client = new SiteClient(
    siteApiFor(folderUrl, site),
    folderId,
    { uploadAuth: owner.uploadAuth, ownerToken },
    httpOf(flags),
  );
  if (flags.file === undefined) {
    await client.deleteFolder();
    await forgetOwned(defaultStateDir(io.env), folderId);
    if (flags.json) io.stdout.write(`${JSON.stringify({ deleted: 'folder', folderId })}\n`);
    else if (!flags.quiet) io.stdout.write(`deleted folder ${folderId} and all its files\n`);
    return EXIT.OK;
  }
  const target = await fileToDelete(link, flags.file, client, flags, io);
  await client.deleteFile(target.fileId);
  if (flags.json) io.stdout.write(`${JSON.stringify({ deleted: 'file', folderId, fileId: target.fileId })}\n`);
  else if (!flags.quiet) io.stdout.write(`deleted ${target.label}\n`);
  return EXIT.OK;
}

/** `--file`: a file id of the folder as it is, else a decrypted name (the whole name, or its last segment). */
async function fileToDelete(
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
