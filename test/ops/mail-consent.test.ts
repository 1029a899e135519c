import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CONFIRM_LINK_HOURS, checkConsentLink } from '../../src/app/mail-consent.js';
import { newToken } from '../../src/domain/ids.js';
import { chunkBody, chunkUrl, createEmpty, postJson } from '../support/api.js';
import { until } from '../support/poll.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';

/**
 * No spam relay: anyone may make a folder and name any address for its notifications,
 * so an address gets nothing but one confirmation mail until it confirms; confirmations are limited
 * per address and per client, notifications are digests capped per folder and per address, every
 * mail carries List-Unsubscribe with RFC 8058 one-click, and an instance-wide budget bounds what
 * reaches SMTP. Against a real SMTP server (smtp-server on loopback), on SQLite and on PostgreSQL
 * (TEST_REQUIRE_SERVICES=1 makes a missing PostgreSQL a failure); the budget across two nodes of
 * one PostgreSQL.
 */
type Registered = {
  files: Array<{ fileId: string; chunkSize: number; uploadUrls: import('../../src/contract/types.js').UploadUrls }>;
};

const unQuote = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
const header = (mail: ReceivedMail, name: string) =>
  new RegExp(`^${name}: ?(.*(?:\\r?\\n[ \\t].*)*)$`, 'mi')
    .exec(mail.raw)?.[1]
    ?.replace(/\r?\n[ \t]+/g, ' ')
    .trim();
const linkIn = (mail: ReceivedMail, path: string) => {
  const found = new RegExp(`https?://\\S+/mail/${path}\\?\\S+`).exec(unQuote(mail.raw))?.[0];
  assert.ok(found, `a ${path} link in ${mail.raw}`);
  return found;
};

class Instance {
  constructor(
    readonly srv: RunningServer,
    readonly smtp: SmtpReceiver,
  ) {}
  api = () => `${this.srv.baseUrl}/api/site/folders`;
  // Envelope addresses arrive as the SMTP server normalised them.
  mailsTo = (address: string) =>
    this.smtp.mails.filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));

  async put(folderId: string, owner: Record<string, string>, body: unknown, ip?: string) {
    const res = await fetch(`${this.api()}/${folderId}/notifications`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...owner, ...(ip ? { 'x-forwarded-for': ip } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { emailStatus?: string; code?: string; error?: string } };
  }

  /** An anonymous folder with one complete file, as anyone on the internet can make. */
  async folderWithFile(): Promise<{ folderId: string; fileId: string; owner: Record<string, string> }> {
    const folder = await createEmpty(this.srv.baseUrl, { mode: 'send' });
    const owner = { 'x-owner-token': newToken() };
    const reg = await postJson<Registered>(
      `${this.api()}/${folder.folderId}/files`,
      { ske: 'ske', files: [{ filename: 'enc', filesize: 10 }] },
      owner,
    );
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    const file = reg.body.files[0]!;
    const res = await fetch(chunkUrl(file.uploadUrls, 1), {
      method: 'PUT',
      body: chunkBody(10, file.chunkSize, 1) as unknown as BodyInit,
    });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const status = await fetch(`${this.api()}/${folder.folderId}/files/${file.fileId}/status`, { headers: owner });
    assert.deepEqual(await status.json(), { complete: true, missing: [] });
    return { folderId: folder.folderId, fileId: file.fileId, owner };
  }

  /** A counted download by someone else. */
  async download(folderId: string, fileId: string): Promise<void> {
    const res = await postJson(`${this.api()}/${folderId}/files/${fileId}/downloads`, undefined, {
      'x-visitor-token': newToken(),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  /** Delivers everything due now, and then what the digest period makes due. */
  async deliverAll(): Promise<void> {
    await this.srv.server.notifier.deliverDue();
    await until('the outbox to drain', async () => {
      await this.srv.server.notifier.deliverDue();
      return (await this.srv.server.services.store.outbox.outboxCounts()).pending === 0;
    });
  }
}

/**
 * The mail budgets count in fixed windows (an hour, a UTC day: the stores' mail-store.ts). A test that
 * counts what a budget lets through must not run across a window's edge (a run at 23:59:59 UTC would
 * get a fresh day's allowance half-way), so its server's clock is set to 12:30 UTC of today: half an
 * hour from either hour's edge, twelve from either day's. Tests that compare the server's clock with
 * the test's own (a link's expiry) keep the true clock.
 */
function midWindow(): Record<string, string> {
  const now = Date.now();
  const midday = Math.floor(now / 86_400_000) * 86_400_000 + 12.5 * 3_600_000;
  return { CLOCK_OFFSET_SECONDS: String(Math.round((midday - now) / 1000)) };
}

async function instance(env: Record<string, string>, smtp?: SmtpReceiver): Promise<Instance> {
  const receiver = smtp ?? (await startSmtpReceiver());
  const srv = await startServer({
    SMTP_URL: receiver.url,
    MAIL_FROM: 'webfolder <noreply@example.org>',
    SITE_NAME: 'Acme Files',
    MAIL_DIGEST_SECONDS: '1',
    RATE_LIMIT_CREATE: '10000',
    RATE_LIMIT_SITE: '10000',
    TRUST_PROXY: 'true',
    ...env,
  });
  // Deliveries are driven by the test (deliverDue), not by the loop's timing.
  return new Instance(srv, receiver);
}

const suite: StoreSuite = (store, env, skip) => {
  describe(`mail consent, limits and digests (${store})`, () => {
    let extra: Record<string, string> | null = null;
    const running: Instance[] = [];
    // Each instance gets its own store (a fresh PostgreSQL database): the budgets are per store.
    const start = async (more: Record<string, string> = {}) => {
      const made = await instance({ ...(await env())!, ...more });
      running.push(made);
      return made;
    };
    before(async () => {
      extra = await env();
    });
    after(async () => {
      for (const i of running) {
        await i.srv.close();
        await i.smtp.close();
      }
    });

    test('a third party named for notifications gets one confirmation mail, not one mail per download', async (t) => {
      if (!extra) return void t.skip(skip());
      const i = await start(midWindow());
      const { folderId, fileId, owner } = await i.folderWithFile();
      const set = await i.put(folderId, owner, { email: 'victim@example.org', onDownload: true });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal(set.body.emailStatus, 'pending');
      for (let n = 0; n < 20; n++) await i.download(folderId, fileId);
      await i.deliverAll();
      const mails = i.mailsTo('victim@example.org');
      assert.equal(mails.length, 1, 'one mail, the confirmation');
      const mail = mails[0]!;
      assert.match(header(mail, 'Subject') ?? '', /confirm/);
      assert.equal(header(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
      assert.match(header(mail, 'List-Unsubscribe') ?? '', /^<https?:\/\/.+\/mail\/refuse\?.+>$/);
      // Asking again (another PUT of the address) sends at most the per-address allowance (2/day).
      await i.put(folderId, owner, { email: 'victim@example.org' });
      await i.put(folderId, owner, { email: 'victim@example.org' });
      await i.deliverAll();
      assert.equal(i.mailsTo('victim@example.org').length, 2, 'MAIL_CONFIRMATIONS_PER_ADDRESS_PER_DAY');
    });

    test('confirming takes a POST; then downloads come as one digest, with List-Unsubscribe', async (t) => {
      if (!extra) return void t.skip(skip());
      const i = await start();
      const { folderId, fileId, owner } = await i.folderWithFile();
      const set = await i.put(folderId, owner, { email: 'Owner@Example.org', onDownload: true });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      await i.deliverAll();
      const confirm = linkIn(i.mailsTo('Owner@Example.org')[0]!, 'confirm');
      // A mail scanner's GET changes nothing: the page asks, its button POSTs.
      const page = await fetch(confirm, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /<html lang="de">/);
      assert.match(html, /<form method="post"><button type="submit">Bestätigen<\/button><\/form>/);
      assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self'/);
      assert.equal((await i.put(folderId, owner, {})).status, 200);
      const read = await fetch(`${i.api()}/${folderId}/notifications`, { headers: owner });
      assert.equal(((await read.json()) as { emailStatus: string }).emailStatus, 'pending');
      const tampered = await fetch(confirm.replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`), { method: 'POST' });
      assert.equal(tampered.status, 400);
      await tampered.text();
      const done = await fetch(confirm, { method: 'POST' });
      assert.equal(done.status, 200);
      assert.match(await done.text(), /Confirmed/);
      const now = await fetch(`${i.api()}/${folderId}/notifications`, { headers: owner });
      assert.equal(((await now.json()) as { emailStatus: string }).emailStatus, 'confirmed');

      const before = i.smtp.mails.length;
      for (let n = 0; n < 5; n++) await i.download(folderId, fileId);
      await i.deliverAll();
      const digests = i.smtp.mails.slice(before);
      assert.ok(digests.length >= 1 && digests.length <= 2, `one digest per period: ${digests.length}`);
      const counted = digests
        .map((m) => Number(/(\d+) downloads?/.exec(unQuote(m.raw))?.[1] ?? 0))
        .reduce((a, b) => a + b, 0);
      assert.equal(counted, 5, 'the digests tell all five downloads');
      for (const mail of digests) {
        assert.deepEqual(
          mail.to.map((to) => to.toLowerCase()),
          ['owner@example.org'],
        );
        assert.equal(header(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
        assert.ok(unQuote(mail.raw).includes(`/f/${folderId}`));
      }
    });

    test('a confirmation link expires; a changed expiry or address does not match its signature', async (t) => {
      if (!extra) return void t.skip(skip());
      const i = await start();
      const { folderId, owner } = await i.folderWithFile();
      await i.put(folderId, owner, { email: 'late@example.org', onDownload: true });
      await i.deliverAll();
      const link = new URL(linkIn(i.mailsTo('late@example.org')[0]!, 'confirm'));
      const query = Object.fromEntries(link.searchParams) as { address: string; sig: string; expires: string };
      const services = i.srv.server.services;
      await checkConsentLink(services, 'confirm', query);
      const later = { ...services, clock: () => Date.now() + (CONFIRM_LINK_HOURS + 1) * 3600_000 };
      await assert.rejects(checkConsentLink(later, 'confirm', query), /has expired/);
      for (const changed of [
        { ...query, expires: String(Number(query.expires) + 3600_000) },
        { ...query, address: 'other@example.org' },
      ]) {
        const url = `${link.origin}${link.pathname}?${new URLSearchParams(changed)}`;
        const res = await fetch(url, { method: 'POST' });
        assert.equal(res.status, 400);
        assert.match(await res.text(), /sig does not match/);
      }
      const read = await fetch(`${i.api()}/${folderId}/notifications`, { headers: owner });
      assert.equal(((await read.json()) as { emailStatus: string }).emailStatus, 'pending');
    });

    test('one-click refusal (RFC 8058) stops all mail to the address, confirmations included', async (t) => {
      if (!extra) return void t.skip(skip());
      const i = await start();
      const { folderId, fileId, owner } = await i.folderWithFile();
      await i.put(folderId, owner, { email: 'refuser@example.org', onDownload: true });
      await i.deliverAll();
      const mail = i.mailsTo('refuser@example.org')[0]!;
      const target = /^<(.+)>$/.exec(header(mail, 'List-Unsubscribe') ?? '')![1]!;
      const click = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(click.status, 200);
      await click.text();
      // Confirming afterwards with the old link is the person's own choice; a new request is not sent.
      const again = await i.folderWithFile();
      const set = await i.put(again.folderId, again.owner, { email: 'refuser@example.org', onDownload: true });
      assert.equal(set.body.emailStatus, 'refused');
      await i.download(folderId, fileId);
      await i.download(again.folderId, again.fileId);
      await i.deliverAll();
      assert.equal(i.mailsTo('refuser@example.org').length, 1, 'nothing after the refusal');
    });

    test('confirmation mails per client are limited (429), and the instance budget bounds what reaches SMTP', async (t) => {
      if (!extra) return void t.skip(skip());
      const i = await start({ ...midWindow(), MAIL_CONFIRMATIONS_PER_CLIENT_PER_DAY: '3', MAIL_BUDGET_PER_HOUR: '2' });
      const { folderId, owner } = await i.folderWithFile();
      const statuses: number[] = [];
      for (let n = 0; n < 5; n++)
        statuses.push((await i.put(folderId, owner, { email: `someone${n}@example.org` }, '203.0.113.7')).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      const refused = await i.put(folderId, owner, { email: 'other@example.org' }, '203.0.113.7');
      assert.equal(refused.body.code, 'rate_limited');
      // Another client still may: the limit is per client address.
      assert.equal((await i.put(folderId, owner, { email: 'x@example.org' }, '203.0.113.8')).status, 200);
      await i.deliverAll();
      assert.equal(i.smtp.mails.length, 2, 'MAIL_BUDGET_PER_HOUR=2: two of the four confirmations were sent');
    });

    test('digests per folder are capped', async (t) => {
      if (!extra) return void t.skip(skip());
      const i = await start({ ...midWindow(), MAIL_PER_FOLDER_PER_DAY: '1' });
      const { folderId, fileId, owner } = await i.folderWithFile();
      await i.put(folderId, owner, { email: 'capped@example.org', onDownload: true });
      await i.deliverAll();
      const confirmed = await fetch(linkIn(i.mailsTo('capped@example.org')[0]!, 'confirm'), { method: 'POST' });
      assert.equal(confirmed.status, 200);
      await confirmed.text();
      await i.download(folderId, fileId);
      await i.deliverAll();
      assert.equal(i.mailsTo('capped@example.org').length, 2, 'confirmation and one digest');
      // The next digest period: its digest is over the folder's daily cap.
      const period = await until('the next digest period', async () => {
        await i.download(folderId, fileId);
        const pending = await i.srv.server.services.store.outbox.outboxCounts();
        return pending.pending > 0 && pending;
      });
      assert.ok(period);
      await i.deliverAll();
      assert.equal(i.mailsTo('capped@example.org').length, 2, 'MAIL_PER_FOLDER_PER_DAY=1');
    });
  });
};

const postgres = onEveryStore(suite);

test('the instance budget holds across two nodes of one PostgreSQL', async (t) => {
  const pgs = postgres.cluster();
  if (!pgs) return void t.skip(postgres.skip());
  const database = await pgs.freshDatabase();
  const smtp = await startSmtpReceiver();
  const shared = {
    ...midWindow(),
    DATABASE_URL: database,
    MAIL_BUDGET_PER_HOUR: '3',
    SIGNING_SECRET: 's'.repeat(32),
  };
  const a = await instance(shared, smtp);
  const b = await instance(shared, smtp);
  try {
    const { folderId, owner } = await a.folderWithFile();
    for (let n = 0; n < 4; n++) await a.put(folderId, owner, { email: `a${n}@example.org` }, `198.51.100.${n}`);
    for (let n = 0; n < 4; n++) await b.put(folderId, owner, { email: `b${n}@example.org` }, `198.51.100.${n + 10}`);
    await Promise.all([a.deliverAll(), b.deliverAll()]);
    assert.equal(smtp.mails.length, 3, 'MAIL_BUDGET_PER_HOUR=3 across both nodes');
  } finally {
    await a.srv.close();
    await b.srv.close();
    await smtp.close();
  }
});
