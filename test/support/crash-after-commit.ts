import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createFolder } from '../../src/app/create-folder.js';
import type { AppEvent, EventType } from '../../src/app/events.js';
import { fileProgress } from '../../src/app/file-progress.js';
import { composeServices } from '../../src/app/services.js';
import { SigningKeys } from '../../src/app/signing-keys.js';
import { registerSiteFiles, siteChunk } from '../../src/app/site/files.js';
import { sweep } from '../../src/app/sweeper.js';
import { openBlobStore, openMetadataStore, resolveSigningSecret } from '../../src/backends.js';
import { loadConfig } from '../../src/config/config.js';
import type { CreateResponseDirect } from '../../src/contract/types.js';
import { encryptedChunkLength } from '../../src/domain/chunk-plan.js';
import { newToken } from '../../src/domain/ids.js';
import { createNotifier } from '../../src/notify/notifier.js';

/**
 * A child process for test/ops/event-durability.test.ts: runs the use cases that report every kind of
 * change, on the backends the environment configures (as a server would), and kills itself with
 * SIGKILL right after commit number CRASH_AT (0-based, in the order of COMMITS), before anything
 * else runs: the moment where an event written after its change would be lost.
 */
export const COMMITS: readonly (readonly EventType[])[] = [
  ['folder.created'],
  ['folder.claimed', 'file.registered'],
  ['folder.created', 'file.registered'],
  ['file.completed'],
  ['file.downloaded'],
  ['folder.expired'],
  ['folder.expired'],
];
if (process.env.CRASH_AT !== undefined) await run(Number(process.env.CRASH_AT));

async function run(crashAt: number): Promise<void> {
  const config = loadConfig(process.env);
  const clock = () => Date.now();
  const store = await openMetadataStore(config);
  const signingSecret = await resolveSigningSecret(config);
  const keys = new SigningKeys(signingSecret);
  const blobs = await openBlobStore(config, clock, signingSecret);
  const notifier = createNotifier(config, store, clock, { delivered() {}, failed() {}, events() {} }, () => {}, keys);
  let commits = 0;
  const events = {
    outbox: (e: readonly AppEvent[]) => notifier.outbox(e),
    committed(e: readonly AppEvent[]) {
      const expected = COMMITS[commits]!;
      if (e.map((x) => x.type).join() !== expected.join())
        throw new Error(`commit ${commits} reported ${e.map((x) => x.type)}`);
      if (commits++ === crashAt) process.kill(process.pid, 'SIGKILL');
    },
  };
  const services = composeServices({ config, store, blobs, clock, events, keys });

  // folder.created (empty flow), then folder.claimed and file.registered by the browser that claims it.
  const empty = await createFolder(services, { mode: 'share' });
  await registerSiteFiles(
    services,
    empty.folderId,
    { ownerToken: newToken() },
    { ske: 'ske', files: [{ filename: 'n', filesize: 100 }] },
  );
  // folder.created and file.registered (direct flow), file.completed once its chunk is stored.
  const direct = (await createFolder(services, {
    encryption: { ske: 'ske' },
    files: [{ filename: 'n', filesize: 100 }],
  })) as CreateResponseDirect;
  const ref = { folderId: direct.folderId, fileId: direct.files[0]!.fileId };
  const file = (await store.getFile(ref.folderId, ref.fileId))!;
  const receiver = services.capabilities.chunkReceiver;
  if (!receiver) throw new Error('the local blob store is needed');
  const length = encryptedChunkLength(file, 1);
  await receiver.writeChunk(ref, 1, length, Readable.from([randomBytes(length)]));
  await fileProgress(services, file);
  // file.downloaded: a visitor fetches the last chunk.
  await siteChunk(services, ref.folderId, ref.fileId, '00001', {});
  // folder.expired, twice: the sweeper a year from now.
  await sweep({ ...services, clock: () => Date.now() + 400 * 86_400_000 });
  process.stdout.write('no crash\n');
  process.exit(0);
}
