import { after } from 'node:test';
import { isUnavailable, type PostgresService, startPostgres } from './services.js';

/** Extra environment for a server on one store, or null when that store cannot be had. */
export type StoreEnv = () => Promise<Record<string, string> | null>;

/** A suite that must hold on every metadata store: its name, the store's environment, the skip reason. */
export type StoreSuite = (store: string, env: StoreEnv, skip: () => string) => void;

/** The PostgreSQL cluster behind the `PostgreSQL` run, for tests that need more databases of it. */
export interface SharedPostgres {
  /** The running cluster, or null before the run started it or when PostgreSQL cannot be had. */
  cluster(): PostgresService | null;
  /** Why the cluster is missing (a skip reason); empty while it is there. */
  skip(): string;
}

/**
 * Runs `suite` on SQLite and on PostgreSQL. Every call of the PostgreSQL run's `env` gets a fresh
 * database of one throwaway cluster, stopped after the file. Where PostgreSQL is not installed the
 * run skips with the reason, except under TEST_REQUIRE_SERVICES=1 (CI), where startPostgres throws.
 */
export function onEveryStore(suite: StoreSuite): SharedPostgres {
  suite(
    'SQLite',
    async () => ({}),
    () => '',
  );
  let postgres: PostgresService | null = null;
  let reason = '';
  suite(
    'PostgreSQL',
    async () => {
      if (!postgres) {
        const made = await startPostgres();
        if (isUnavailable(made)) {
          reason = made.skip;
          return null;
        }
        postgres = made;
      }
      return { DATABASE_URL: await postgres.freshDatabase() };
    },
    () => reason,
  );
  after(async () => postgres?.stop());
  return { cluster: () => postgres, skip: () => reason };
}
