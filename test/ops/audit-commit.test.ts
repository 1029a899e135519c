import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { openConnection } from '../../src/store/sqlite/connection.js';
import { call, token } from '../site-api/owner-support.js';
import { createEmpty, postJson } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore } from '../support/stores.js';

/**
 * A folder's creation and its audit entry are one commit, on SQLite and PostgreSQL: when the
 * database refuses the entry, the folder is not created either (the create fails as a whole), so
 * a crash can neither lose the entry of a folder that exists nor record one that does not.
 */
const ADMIN_TOKEN = 'audit-commit-admin-token-0123456789abcdef';

/** SQL run directly on the server's database, as its operator could: SQLite's file or PostgreSQL's. */
type Sql = (statement: string) => Promise<unknown[]>;

function sqlOf(srv: RunningServer, databaseUrl: string | undefined): { sql: Sql; close: () => Promise<void> } {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    // The throwaway cluster is stopped when the file ends, which ends an idle pooled connection:
    // without a listener that is an uncaught error after the test.
    pool.on('error', () => {});
    return { sql: async (s) => (await pool.query(s)).rows, close: () => pool.end() };
  }
  const db = openConnection(join(srv.dataDir, 'webfolder.db'));
  return {
    sql: async (s) => {
      if (/^\s*select/i.test(s)) return db.prepare(s).all();
      db.exec(s);
      return [];
    },
    close: async () => {
      db.close();
    },
  };
}

/** Makes every insert into the audit log fail, as a full disk or a broken table would. */
const REFUSE_AUDIT = {
  sqlite: `CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
  postgres: `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$;
    CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()`,
};
const ALLOW_AUDIT = {
  sqlite: 'DROP TRIGGER refuse_audit',
  postgres: 'DROP TRIGGER refuse_audit ON audit_log; DROP FUNCTION refuse_audit()',
};

onEveryStore((store, env, skip) => {
  describe(`create and audit entry on ${store}`, () => {
    test('an audit entry the database refuses takes the folder with it; once allowed, both are stored', async (t) => {
      const extra = await env();
      if (!extra) return t.skip(skip());
      const srv = await startServer({ ...extra, ADMIN_TOKEN });
      const dialect = extra.DATABASE_URL ? 'postgres' : 'sqlite';
      const { sql, close } = sqlOf(srv, extra.DATABASE_URL);
      try {
        const count = async (table: string) =>
          Number(((await sql(`SELECT count(*) AS n FROM ${table}`))[0] as { n: number | string }).n);
        await sql(REFUSE_AUDIT[dialect]);
        const empty = await postJson(`${srv.baseUrl}/v2/folders`, { title: 'refused empty' });
        assert.ok(empty.status >= 500, `empty create: ${empty.status}`);
        const direct = await postJson(`${srv.baseUrl}/v2/folders`, {
          title: 'refused direct',
          encryption: { ske: 'ske-value' },
          files: [{ filename: 'a.bin', filesize: 10 }],
        });
        assert.ok(direct.status >= 500, `direct create: ${direct.status}`);
        const site = await call(`${srv.baseUrl}/api/site`, 'POST', '/folders', {
          owner: token(),
          body: { mode: 'share', ske: 'ske-value' },
        });
        assert.ok(site.status >= 500, `site create: ${site.status}`);
        assert.equal(await count('folders'), 0, 'a folder was created without its audit entry');
        assert.equal(await count('files'), 0);

        await sql(ALLOW_AUDIT[dialect]);
        const created = await createEmpty(srv.baseUrl, { title: 'allowed' });
        assert.equal(await count('folders'), 1);
        const res = await fetch(`${srv.baseUrl}/api/admin/audit?action=folder.create`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        const { entries } = (await res.json()) as { entries: { folderId: string }[] };
        assert.deepEqual(
          entries.map((e) => e.folderId),
          [created.folderId],
        );
      } finally {
        await close();
        await srv.close();
      }
    });
  });
});
