import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Services } from '../../src/app/services.js';
import { SigningKeys } from '../../src/app/signing-keys.js';
import { makeTicket, ticketOpens } from '../../src/app/site/downloads.js';

/**
 * Download tickets (src/app/site/downloads.ts) with explicit times: bound to folder, file and expiry,
 * accepted by every node that shares the signing secret, refused by any other.
 */
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);
const node = (secret: string) => ({ keys: new SigningKeys(secret) }) as unknown as Services;
const FOLDER = 'AAAAAAAAAAAAAAAA';
const FILE = 'BBBBBBBBBBBBBBBB';
const DOWNLOAD = 'DDDDDDDDDDDDDDDDDDDDDD';

test('a ticket opens its file until its expiry, on any node with the same secret', async () => {
  const a = node('s'.repeat(32));
  const b = node('s'.repeat(32));
  const ticket = await makeTicket(a, FOLDER, FILE, T0 + 1000, DOWNLOAD);
  assert.equal(await ticketOpens(a, ticket, FOLDER, FILE, T0), true);
  assert.equal(await ticketOpens(b, ticket, FOLDER, FILE, T0 + 999), true, 'another node sharing the secret');
  assert.equal(await ticketOpens(a, ticket, FOLDER, FILE, T0 + 1000), false, 'expired at its expiry');
});

test('a ticket opens nothing else, and nothing opens without the secret', async () => {
  const a = node('s'.repeat(32));
  const ticket = await makeTicket(a, FOLDER, FILE, T0 + 1000, DOWNLOAD);
  assert.equal(await ticketOpens(a, ticket, FOLDER, 'CCCCCCCCCCCCCCCC', T0), false, 'another file');
  assert.equal(await ticketOpens(a, ticket, 'CCCCCCCCCCCCCCCC', FILE, T0), false, 'another folder');
  const [expiry, download, mac] = ticket.split('.') as [string, string, string];
  assert.equal(download, DOWNLOAD);
  assert.equal(
    await ticketOpens(a, `${Number(expiry) + 5000}.${download}.${mac}`, FOLDER, FILE, T0),
    false,
    'a moved expiry',
  );
  const other = `${expiry}.${'E'.repeat(22)}.${mac}`;
  assert.equal(await ticketOpens(a, other, FOLDER, FILE, T0), false, 'another download');
  assert.equal(await ticketOpens(node('t'.repeat(32)), ticket, FOLDER, FILE, T0), false, 'another secret');
  for (const bad of [
    '',
    '.',
    `${expiry}.`,
    `${expiry}.${mac}`,
    `${expiry}.${download}.${mac}=`,
    `${expiry}.${download}.${mac.slice(1)}`,
    `x${ticket}`,
  ])
    assert.equal(await ticketOpens(a, bad, FOLDER, FILE, T0), false, JSON.stringify(bad));
});
