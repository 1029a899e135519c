import { PostgresMetadataStore } from '../../src/store/postgres/postgres-store.js';
import { isUnavailable, startPostgres } from '../support/services.js';
import { metadataStoreSuite } from './metadata-store.suite.js';

// The scale-out store on a real PostgreSQL server (a throwaway cluster, or TEST_DATABASE_URL): a new
// database per test, and the peer is a second pool on it, as a second API node would have.
metadataStoreSuite('PostgreSQL', async () => {
  const pg = await startPostgres();
  if (isUnavailable(pg)) return pg;
  return {
    async open() {
      const url = await pg.freshDatabase();
      // Both open at once: the migrations' advisory lock makes that safe.
      const [store, peer] = await Promise.all([PostgresMetadataStore.open(url), PostgresMetadataStore.open(url)]);
      return { store, peer };
    },
    stop: () => pg.stop(),
  };
});
