import type { OpenedFile } from './types.js';

/**
 * Who looks: the owner is never limited by a file's download count, and a page that holds the
 * ticket of an unfinished download of the file may go on with it (web/src/state/reader.ts).
 */
interface Looker {
  readonly info: { readonly isOwner: boolean };
  readonly reader?: { holdsTicket(fileId: string): boolean };
}

/** A visitor's file with no download left (the owner is not limited; a kept ticket still opens it). */
function exhausted(session: Looker, o: OpenedFile): boolean {
  return o.file.downloadsLeft === 0 && !session.info.isOwner && !session.reader?.holdsTicket(o.file.fileId);
}

/**
 * Whether a file can be downloaded: the list's button and the viewer's agree on it (Download all
 * takes the complete ones). A file still arriving from someone else can be: its download
 * waits for each chunk as it is stored and ends with the upload, or says the upload stopped. An
 * incomplete file of one's own (`mine`) is not: this browser is its sender, so it is either being
 * sent from here or stopped (cancelled, interrupted), to be resumed by picking it again.
 */
export function downloadable(session: Looker, o: OpenedFile): boolean {
  return (o.file.complete || (!o.file.mine && !o.file.stopped)) && Boolean(o.secret) && !exhausted(session, o);
}

/** A file arriving from another sender: its row shows the server's progress, its download can start. */
export function arriving(o: OpenedFile): boolean {
  return !o.file.complete && !o.file.mine && !o.file.stopped;
}

/**
 * A file whose sender stopped its upload (Cancel, the tab closed: src/domain/sending.ts): nothing
 * more arrives unless the sender resumes, so it is out of the summary and the zip, and not offered.
 */
export function stoppedUpload(o: OpenedFile): boolean {
  return !o.file.complete && o.file.stopped;
}

/**
 * What the viewer shows, without a DOM: which kind of preview a file gets, which way its bytes come
 * (streamed by the service worker, decrypted into memory, or only downloaded) and which file is
 * open, with next/previous. The view (web/src/views/viewer.ts) renders it; node:test drives it
 * (test/site/preview.test.ts).
 *
 * Safety rules, decided here once:
 * - the kind comes from the file name's extension first, then from its (uploader-chosen) type;
 * - a file is never given a type the browser would run as a document: HTML, XHTML and XML are
 *   text; SVG is an image (an `<img>` runs no script in it);
 * - the type handed to the browser is from the allowlist below, never the uploader's string.
 */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'markdown' | 'text' | 'none';

const TYPES: Record<string, readonly [PreviewKind, string]> = {
  jpg: ['image', 'image/jpeg'],
  jpeg: ['image', 'image/jpeg'],
  png: ['image', 'image/png'],
  gif: ['image', 'image/gif'],
  webp: ['image', 'image/webp'],
  avif: ['image', 'image/avif'],
  bmp: ['image', 'image/bmp'],
  ico: ['image', 'image/x-icon'],
  svg: ['image', 'image/svg+xml'],
  mp4: ['video', 'video/mp4'],
  m4v: ['video', 'video/mp4'],
  mov: ['video', 'video/mp4'],
  webm: ['video', 'video/webm'],
  ogv: ['video', 'video/ogg'],
  mkv: ['video', 'video/webm'],
  mp3: ['audio', 'audio/mpeg'],
  m4a: ['audio', 'audio/mp4'],
  aac: ['audio', 'audio/aac'],
  ogg: ['audio', 'audio/ogg'],
  oga: ['audio', 'audio/ogg'],
  opus: ['audio', 'audio/ogg'],
  wav: ['audio', 'audio/wav'],
  flac: ['audio', 'audio/flac'],
  pdf: ['pdf', 'application/pdf'],
  md: ['markdown', 'text/plain'],
  markdown: ['markdown', 'text/plain'],
};

const TEXT_EXTENSIONS = new Set(
  (
    'txt text log csv tsv json jsonl ndjson xml yaml yml toml ini cfg conf env properties html htm xhtml css scss ' +
    'less js mjs cjs jsx ts tsx vue svelte py rb php pl sh bash zsh fish ps1 bat c h cc cpp hpp cs java kt kts go rs ' +
    'swift m mm scala clj ex exs erl hs lua r sql graphql proto dockerfile makefile gradle tex rst adoc srt vtt diff patch'
  ).split(' '),
);

function extension(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(dot + 1) : base;
}

/** The preview a file gets, and the type its bytes are handed to the browser with. */
export function previewType(name: string, mimetype: string | null): { kind: PreviewKind; type: string } {
  const ext = extension(name);
  const known = TYPES[ext];
  if (known) return { kind: known[0], type: known[1] };
  if (TEXT_EXTENSIONS.has(ext)) return { kind: 'text', type: 'text/plain' };
  const mime = (mimetype ?? '').toLowerCase().split(';')[0]!.trim();
  for (const [kind, type] of Object.values(TYPES)) if (type === mime && kind !== 'markdown') return { kind, type };
  if (mime.startsWith('text/') || mime === 'application/json' || mime.endsWith('+xml') || mime.endsWith('+json'))
    return { kind: 'text', type: 'text/plain' };
  return { kind: 'none', type: 'application/octet-stream' };
}

/** Text and Markdown shown up to this size (a page of text larger than this is not read, it is downloaded). */
export const TEXT_LIMIT = 2 * 1024 * 1024;
/**
 * What the page decrypts into memory to show (images, PDFs; video and audio without a service
 * worker). Past it the viewer offers the download instead. Browsers hold a Blob this size easily.
 */
export const MEMORY_LIMIT = 256 * 1024 * 1024;

export type PreviewWay =
  /** Video or audio through the service worker, which answers the element's Range requests. */
  | 'stream'
  /** Decrypted whole into a Blob (or a string for text), then shown. */
  | 'memory'
  /** Not shown: the viewer says why and offers the download. */
  | 'download';

export interface PreviewPlan {
  readonly kind: PreviewKind;
  readonly type: string;
  readonly way: PreviewWay;
  /** Why a file is only downloaded: the viewer says it in the person's language (viewer.ts). */
  readonly reason?: PreviewReason;
  /** The size limit that applied, in MiB, for the reasons that name one. */
  readonly limitMiB?: number;
}

/**
 * Why a file is not shown: 'type' no viewer for it; 'arriving' not complete yet (shown once it is);
 * 'no-stream' media over the memory limit in a browser without a service worker; 'too-large' over
 * its type's limit. A code, not words: the state is DOM-free and language-free.
 */
export type PreviewReason = 'type' | 'arriving' | 'no-stream' | 'too-large';

const MIB = 1024 * 1024;

/**
 * How a file is previewed, given whether a service worker controls the page and whether the file is
 * still arriving (its upload is running). An arriving video or audio streams: the service worker
 * answers the element's ranges as their records are stored, so it plays what has arrived and waits
 * at the edge. Everything else is decoded whole (an image, a PDF, text need all their bytes, and
 * the memory way would hold the viewer on "decrypting" for the whole upload): it is shown once
 * complete, and its download can start at once.
 */
export function previewPlan(
  name: string,
  mimetype: string | null,
  size: number,
  serviceWorker: boolean,
  arriving = false,
): PreviewPlan {
  const { kind, type } = previewType(name, mimetype);
  if (kind === 'none') return { kind, type, way: 'download', reason: 'type' };
  if ((kind === 'video' || kind === 'audio') && serviceWorker) return { kind, type, way: 'stream' };
  if (arriving) return { kind, type, way: 'download', reason: 'arriving' };
  const limit = kind === 'text' || kind === 'markdown' ? TEXT_LIMIT : MEMORY_LIMIT;
  if (size > limit) {
    const reason = kind === 'video' || kind === 'audio' ? 'no-stream' : 'too-large';
    return { kind, type, way: 'download', reason, limitMiB: limit / MIB };
  }
  return { kind, type, way: 'memory' };
}

/** The files the viewer can step through, and the one open. */
export class Viewer {
  private index = -1;
  private readonly list: OpenedFile[] = [];

  constructor(files: readonly OpenedFile[]) {
    this.add(files);
  }

  /**
   * Adds files (the list arrives a page at a time): those this browser can read, complete or
   * arriving from another sender (previewPlan), not one's own stopped upload.
   */
  add(files: readonly OpenedFile[]): void {
    this.list.push(...files.filter((f) => f.secret !== null && (f.file.complete || arriving(f))));
  }

  get files(): readonly OpenedFile[] {
    return this.list;
  }

  has(file: OpenedFile): boolean {
    return this.list.includes(file);
  }

  get current(): OpenedFile | null {
    return this.files[this.index] ?? null;
  }

  /** Opens a file by id; false when it cannot be opened (unreadable or still uploading). */
  open(fileId: string): boolean {
    const i = this.files.findIndex((f) => f.file.fileId === fileId);
    if (i < 0) return false;
    this.index = i;
    return true;
  }

  close(): void {
    this.index = -1;
  }

  /** The next file (wrapping around); null when none is open. */
  next(): OpenedFile | null {
    return this.step(1);
  }

  previous(): OpenedFile | null {
    return this.step(-1);
  }

  private step(by: number): OpenedFile | null {
    if (this.index < 0 || this.files.length === 0) return null;
    this.index = (this.index + by + this.files.length) % this.files.length;
    return this.current;
  }

  /** "2 of 5", for the viewer's header. */
  position(): string {
    return this.index < 0 ? '' : `${this.index + 1} of ${this.files.length}`;
  }
}

/**
 * What a key press does in the viewer. The arrow pointing the way the page reads goes on: right in
 * a left-to-right language, left in a right-to-left one (where the next button is on the left too).
 */
export function viewerKey(key: string, rightToLeft = false): 'next' | 'previous' | 'close' | null {
  const forward = rightToLeft ? 'ArrowLeft' : 'ArrowRight';
  const back = rightToLeft ? 'ArrowRight' : 'ArrowLeft';
  if (key === forward) return 'next';
  if (key === back) return 'previous';
  if (key === 'Escape') return 'close';
  return null;
}

/** Thumbnails fit in a square of this many pixels (never enlarged). */
export const THUMBNAIL_SIZE = 256;
/** Images larger than this get an icon in the grid, not a thumbnail (the page would decrypt them whole). */
export const THUMBNAIL_SOURCE_LIMIT = 32 * 1024 * 1024;

/** A thumbnail's size: the image scaled to fit THUMBNAIL_SIZE, keeping its proportions. */
export function thumbnailSize(width: number, height: number, max = THUMBNAIL_SIZE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Whether the grid shows a thumbnail of a file: the one stored with it (images and videos uploaded
 * from the page), or for raster images this browser can read, not too large, one made here.
 */
export function canThumbnail(opened: OpenedFile): boolean {
  const { kind, type } = previewType(opened.name ?? '', opened.mimetype);
  if (opened.secret === null || !opened.file.complete) return false;
  if (kind === 'video') return true;
  return kind === 'image' && type !== 'image/svg+xml' && opened.file.filesize <= THUMBNAIL_SOURCE_LIMIT;
}

/** A folder is shown as a grid of thumbnails when at least half of its readable files are images. */
export function isImageFolder(files: readonly OpenedFile[]): boolean {
  const readable = files.filter((f) => f.name !== null);
  const images = readable.filter((f) => previewType(f.name!, f.mimetype).kind === 'image');
  return images.length > 0 && images.length * 2 >= readable.length;
}

/** A file's icon: a name in the site's icon set (web/src/views/icons.ts draws it). */
export type IconName = PreviewKind | 'locked';

/** The icon of a file without a thumbnail, by kind; `locked` when this browser cannot read its name. */
export function typeIcon(opened: OpenedFile): IconName {
  return opened.name === null ? 'locked' : previewType(opened.name, opened.mimetype).kind;
}
