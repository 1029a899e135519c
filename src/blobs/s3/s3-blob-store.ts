import type { Readable } from 'node:stream';
import {
  type BucketLocationConstraint,
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../../config/config.js';
import { chunkName } from '../../contract/paths.js';
import type { UploadUrls } from '../../contract/types.js';
import { bulkSteps } from '../../domain/bulk-turns.js';
import { MAX_URL_VALIDITY_SECONDS } from '../../domain/limits.js';
import {
  type BlobCapabilities,
  BlobNotFoundError,
  type BlobStore,
  type ChunkDownloadPresigner,
  type ChunkRef,
  type FolderChunkLister,
  type PresignRequest,
  type StoredRange,
  THUMBNAIL_NAME,
} from '../blob-store.js';
import { raiseOutagesAsUnavailable } from './outage.js';
import { type ChunkSigningJob, canonicalQueryOf, deriveSigningKey, signChunks } from './sigv4-chunks.js';

/**
 * The scale-out bytes store: any S3-compatible object storage (AWS S3, MinIO, Ceph RGW, R2, ...).
 *
 * One object per encrypted chunk at `<folderId>/<fileId>/<NNNNN>`. Clients upload chunk bodies
 * straight to object storage through presigned PutObject URLs, so this store has no ChunkReceiver
 * capability: no chunk byte passes through an API node. The object store is the single source of
 * truth for chunk presence (an S3 PUT is atomic: an object exists only once fully written).
 *
 * Presigned upload URLs follow the file.kiwi chunk URL rule (chunkUrl in src/transfer/urls.ts): every
 * chunk of a file is signed with the same signing date and validity, so all its URLs share `head` and `tail`
 * (the SigV4 query parameters) and differ only in the key and the signature. Each URL signs the
 * chunk's exact Content-Length (and the Content-Type given in `headers`): S3 refuses a body of any
 * other length, so a URL cannot store more than its chunk.
 */
export const CHUNK_CONTENT_TYPE = 'application/octet-stream';
const CHUNK_KEY = /^\d{5,}$/;

/** Chunk signatures made between two looks at the clock: well under a ms of hashing. */
const SIGNATURES_PER_SLICE = 64;
/** Signed headers of a chunk PUT beyond host: the exact length, and the type given in `headers`. */
const SIGNED_PUT_HEADERS = new Set(['content-type', 'content-length']);

/**
 * The bucket CORS rules set when this store creates the bucket: browsers on the site upload chunks
 * with PUT (sending Content-Type) and download them with GET, from any origin that has the link.
 * The URLs themselves are the credential, so the origin is not restricted. See docs/scale-out.md.
 */
export const BUCKET_CORS_RULES = [
  {
    AllowedOrigins: ['*'],
    AllowedMethods: ['PUT', 'GET', 'HEAD'],
    AllowedHeaders: ['*'],
    ExposeHeaders: ['ETag', 'Content-Length'],
    MaxAgeSeconds: 86400,
  },
];

export interface S3BlobStoreOptions {
  /** Keys per ListObjectsV2 page (default and S3's maximum 1000); small values test pagination. */
  readonly pageSize?: number;
  /** Called with a note when the bucket is created or its CORS cannot be set. */
  readonly log?: (message: string) => void;
}

export class S3BlobStore implements BlobStore, ChunkDownloadPresigner, FolderChunkLister {
  /** Clients send chunks to the bucket and fetch them with presigned URLs; the bucket has no floor. */
  readonly capabilities: BlobCapabilities = {
    chunkReceiver: null,
    spaceGuard: null,
    downloadPresigner: this,
    folderChunkLister: this,
  };

  private constructor(
    readonly client: S3Client,
    readonly bucket: string,
    private readonly clock: () => number,
    private readonly pageSize: number,
  ) {}

  /**
   * Connects and makes sure the bucket exists: when it does not and the credentials allow it, it is
   * created with the CORS rules the browser site needs. An existing bucket is left as it is.
   */
  static async open(config: S3Config, clock: () => number, options: S3BlobStoreOptions = {}): Promise<S3BlobStore> {
    // The @aws-sdk versions are pinned to ones that support Node 20; their notice about later
    // versions needing Node 22 is not actionable at run time.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const clientConfig: S3ClientConfig = {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      // Checksums only where S3 requires them (DeleteObjects): a default CRC32 of the empty body
      // would otherwise be signed into every presigned PUT and break uploads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
    };
    const client = new S3Client(clientConfig);
    raiseOutagesAsUnavailable(client);
    const store = new S3BlobStore(client, config.bucket, clock, Math.min(1000, Math.max(1, options.pageSize ?? 1000)));
    try {
      await store.ensureBucket(config, options.log ?? (() => {}));
    } catch (error) {
      client.destroy();
      throw error;
    }
    return store;
  }

  private async ensureBucket(config: S3Config, log: (message: string) => void): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // 403: the bucket exists but these credentials may only use objects. Go on; a real lack of
      // access shows on the first request.
      if (status === 403) return;
      if (status !== 404) throw error;
    }
    const location =
      !config.endpoint && config.region !== 'us-east-1'
        ? { CreateBucketConfiguration: { LocationConstraint: config.region as BucketLocationConstraint } }
        : {};
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket, ...location }));
      log(`created bucket ${this.bucket}`);
    } catch (error) {
      const name = (error as Error).name;
      // Another node created it at the same moment.
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
      return;
    }
    try {
      await this.client.send(
        new PutBucketCorsCommand({ Bucket: this.bucket, CORSConfiguration: { CORSRules: BUCKET_CORS_RULES } }),
      );
    } catch (error) {
      log(
        `could not set CORS on bucket ${this.bucket} (${(error as Error).name}): browsers need it, see docs/scale-out.md`,
      );
    }
  }

  private prefix(ref: ChunkRef): string {
    return `${ref.folderId}/${ref.fileId}/`;
  }

  async presignUploads(request: PresignRequest): Promise<UploadUrls> {
    const now = this.clock();
    // One signing date (whole seconds, as SigV4 has them) and one validity for every chunk.
    const signingDate = new Date(Math.floor(now / 1000) * 1000);
    const expiresIn = Math.min(MAX_URL_VALIDITY_SECONDS, Math.max(1, Math.floor((request.expiresAt - now) / 1000)));
    const path = `${request.folderId}/${request.fileId}`;
    const keyOf = (n: number) => `${path}/${chunkName(n)}`;
    // Chunk 1 always goes through the SDK: its URL gives head and tail, and checks the signer below.
    const first = await this.sdkPresignPut(keyOf(1), request.chunkLength(1), signingDate, expiresIn);
    const { head, tail, signature: firstSignature } = splitPresignedUrl(first, keyOf(1));
    const wanted: number[] = [];
    for (let n = 2; n <= request.chunks; n++) if (!request.include || request.include(n)) wanted.push(n);
    const signatures = new Array<string>(request.chunks).fill('');
    if (!request.include || request.include(1)) signatures[0] = firstSignature;
    if (wanted.length > 0) {
      const job = await this.signingJob(first, keyOf(1), request.chunkLength(1), firstSignature);
      if (job) {
        const keys = wanted.map(keyOf);
        const lengths = wanted.map((n) => request.chunkLength(n));
        // Signed here, a slice at a time in bulk-work steps: 100,000 signatures are about a
        // CPU-second, so other requests are served between the steps (domain/bulk-turns.ts).
        const steps = bulkSteps();
        let hex = '';
        for (let at = 0; at < wanted.length; at += SIGNATURES_PER_SLICE) {
          await steps.next();
          const end = at + SIGNATURES_PER_SLICE;
          hex += signChunks({ ...job, keys: keys.slice(at, end), lengths: lengths.slice(at, end) });
        }
        wanted.forEach((n, i) => {
          signatures[n - 1] = hex.slice(i * 64, (i + 1) * 64);
        });
      } else {
        // A future SDK shaping the request differently: every chunk through the SDK (slow, correct).
        const steps = bulkSteps();
        for (const n of wanted) {
          await steps.next();
          const url = await this.sdkPresignPut(keyOf(n), request.chunkLength(n), signingDate, expiresIn);
          const parts = splitPresignedUrl(url, keyOf(n));
          // The rule only works if every chunk URL shares head and tail: check it rather than trust it.
          if (parts.head !== head || parts.tail !== tail)
            throw new Error(`presigned URL of chunk ${n} does not share head and tail with chunk 1`);
          signatures[n - 1] = parts.signature;
        }
      }
    }
    // Content-Length is signed too, but it differs per chunk and every HTTP client sends it itself.
    return { head, path, tail, signatures, headers: { 'Content-Type': CHUNK_CONTENT_TYPE } };
  }

  /** A presigned PutObject URL for one chunk object, through the SDK's full request pipeline. */
  private sdkPresignPut(key: string, length: number, signingDate: Date, expiresIn: number): Promise<string> {
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: length, ContentType: CHUNK_CONTENT_TYPE }),
      { expiresIn, signingDate, signableHeaders: SIGNED_PUT_HEADERS },
    );
  }

  /**
   * getSignedUrl runs the SDK's whole middleware stack per URL (about 1.5 ms): 100,000 chunk URLs
   * were minutes of CPU. All chunk URLs of a file are one request but for the key and the length, so
   * the others are signed by sigv4-chunks.ts from chunk 1's URL, with the signing key derived once,
   * in a worker. Used only if it reproduces the SDK's signature of chunk 1 exactly; null otherwise.
   */
  private async signingJob(
    first: string,
    firstKey: string,
    firstLength: number,
    firstSignature: string,
  ): Promise<Omit<ChunkSigningJob, 'keys' | 'lengths'> | null> {
    const url = new URL(first);
    const [, date, region, service, terminator] = (url.searchParams.get('X-Amz-Credential') ?? '').split('/');
    const amzDate = url.searchParams.get('X-Amz-Date');
    if (!date || !region || !service || terminator !== 'aws4_request' || !amzDate) return null;
    if (url.searchParams.get('X-Amz-SignedHeaders') !== 'content-length;content-type;host') return null;
    if (!url.pathname.endsWith(`/${firstKey}`)) return null;
    const credentials = await this.client.config.credentials();
    const job = {
      signingKeyHex: deriveSigningKey(credentials.secretAccessKey, date, region, service).toString('hex'),
      amzDate,
      scope: `${date}/${region}/${service}/aws4_request`,
      basePath: url.pathname.slice(0, url.pathname.length - firstKey.length),
      canonicalQuery: canonicalQueryOf(url),
      host: url.host,
      contentType: CHUNK_CONTENT_TYPE,
    };
    return signChunks({ ...job, keys: [firstKey], lengths: [firstLength] }) === firstSignature ? job : null;
  }

  async listChunks(ref: ChunkRef): Promise<Map<number, number>> {
    const chunks = new Map<number, number>();
    const prefix = this.prefix(ref);
    await this.eachPage(prefix, (objects) => {
      for (const { Key, Size } of objects) {
        const name = Key.slice(prefix.length);
        if (CHUNK_KEY.test(name)) chunks.set(Number(name), Size);
      }
    });
    return chunks;
  }

  /**
   * The chunks of several files of a folder, batched by prefix: pages of ListObjectsV2 under the
   * folder's prefix, each starting at the first wanted file not yet known (StartAfter), so one page
   * covers every wanted file whose keys it holds. Keys sort by file id, then chunk number, so a file
   * is known once a page holds its last key and goes past it. Each request settles at least one
   * wanted file or continues one with more objects than a page: never more requests than one
   * listing per file, and one for a page of small files, whatever their number.
   */
  async listFolderChunks(folderId: string, fileIds: readonly string[]): Promise<Map<string, Map<number, number>>> {
    const wanted = [...new Set(fileIds)].sort();
    const found = new Map(wanted.map((id) => [id, new Map<number, number>()]));
    const prefix = `${folderId}/`;
    let next = 0;
    let startAfter = wanted.length > 0 ? `${prefix}${wanted[0]}/` : null;
    while (startAfter !== null) {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          StartAfter: startAfter,
          MaxKeys: this.pageSize,
        }),
      );
      let last: { key: string; fileId: string } | null = null;
      for (const { Key, Size } of page.Contents ?? []) {
        if (!Key) continue;
        const [fileId = '', name = ''] = Key.slice(prefix.length).split('/');
        if (CHUNK_KEY.test(name)) found.get(fileId)?.set(Number(name), Size ?? 0);
        last = { key: Key, fileId };
      }
      if (!page.IsTruncated || last === null) break; // everything after the start is known
      // Files before the last key's file are known; that one may go on in the next page.
      while (next < wanted.length && wanted[next]! < last.fileId) next++;
      startAfter = next >= wanted.length ? null : wanted[next] === last.fileId ? last.key : `${prefix}${wanted[next]}/`;
    }
    return found;
  }

  async readChunk(ref: ChunkRef, n: number, range?: StoredRange): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: `${this.prefix(ref)}${chunkName(n)}`,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body as Readable;
    } catch (error) {
      const e = error as Error & { $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404)
        throw new BlobNotFoundError(`chunk ${n} is not stored`);
      throw error;
    }
  }

  async presignDownload(ref: ChunkRef, n: number, expiresAt: number): Promise<string> {
    const now = this.clock();
    const expiresIn = Math.min(MAX_URL_VALIDITY_SECONDS, Math.max(1, Math.floor((expiresAt - now) / 1000)));
    return getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix(ref)}${chunkName(n)}` }),
      {
        expiresIn,
        signingDate: new Date(now),
      },
    );
  }

  async writeThumbnail(ref: ChunkRef, bytes: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: `${this.prefix(ref)}${THUMBNAIL_NAME}`,
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async readThumbnail(ref: ChunkRef): Promise<Uint8Array | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix(ref)}${THUMBNAIL_NAME}` }),
      );
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array(0);
    } catch (error) {
      const e = error as Error & { $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async deleteFile(ref: ChunkRef): Promise<void> {
    await this.deletePrefix(this.prefix(ref));
  }

  async deleteFolder(folderId: string): Promise<void> {
    await this.deletePrefix(`${folderId}/`);
  }

  /** Deletes every object under `prefix`, a page (<= 1000 keys, one DeleteObjects call) at a time. */
  private async deletePrefix(prefix: string): Promise<void> {
    await this.eachPage(prefix, async (objects) => {
      if (objects.length === 0) return;
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: objects.map(({ Key }) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0)
        throw new Error(
          `could not delete ${failed.length} objects under ${prefix}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`,
        );
    });
  }

  /** Pages through ListObjectsV2 under `prefix`. */
  private async eachPage(
    prefix: string,
    visit: (objects: Array<{ Key: string; Size: number }>) => void | Promise<void>,
  ): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: this.pageSize,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      await visit((page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key, Size: o.Size ?? 0 }] : [])));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/**
 * Splits a presigned chunk URL into the parts of the chunk URL rule: `head` (everything before the
 * object key), `tail` (the query without X-Amz-Signature, in the URL's own order) and the signature.
 * Throws if the URL does not have that shape.
 */
export function splitPresignedUrl(url: string, key: string): { head: string; tail: string; signature: string } {
  const q = url.indexOf('?');
  if (q < 0) throw new Error('presigned URL has no query');
  const base = url.slice(0, q);
  if (!base.endsWith(`/${key}`)) throw new Error(`presigned URL path does not end with the object key ${key}`);
  const head = base.slice(0, base.length - key.length);
  const params = url.slice(q + 1).split('&');
  const signatureParams = params.filter((p) => p.startsWith('X-Amz-Signature='));
  if (signatureParams.length !== 1) throw new Error('presigned URL must carry exactly one X-Amz-Signature');
  return {
    head,
    tail: params.filter((p) => !p.startsWith('X-Amz-Signature=')).join('&'),
    signature: signatureParams[0]!.slice('X-Amz-Signature='.length),
  };
}
