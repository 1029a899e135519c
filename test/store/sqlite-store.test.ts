import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SqliteMetadataStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/server.js';
import { metadataStoreSuite } from './metadata-store.suite.js';

// The embedded store, on a real SQLite file in a temporary directory (a new file per test).
metadataStoreSuite('SQLite', async () => {
  const dir = await tempDir('webfolder-sqlite-');
  let n = 0;
  return {
    async open() {
      const path = join(dir, `store-${++n}.db`);
      return { store: new SqliteMetadataStore(path), peer: new SqliteMetadataStore(path) };
    },
    async stop() {
      await rm(dir, { recursive: true, force: true });
    },
  };
});
