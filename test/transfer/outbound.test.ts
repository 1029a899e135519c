import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerSchemas } from '../../src/contract/answers.js';
import { ProtocolError } from '../../src/transfer/errors.js';
import {
  CREDENTIAL_HEADERS,
  foreignRequest,
  homeEmpty,
  homeJson,
  homeRequest,
  RedirectRefusedError,
} from '../../src/transfer/outbound.js';
import { leaks, type StandIns, startStandIns } from '../support/stand-in.js';

/**
 * The outbound-request layer itself (src/transfer/outbound.ts), against stand-in servers on two
 * loopback origins: home requests never follow a redirect (so their credentials never reach
 * another origin), every JSON answer passes its contract schema or is refused naming the call, and
 * foreign requests (presigned URLs) carry no credential of ours. Each client call is tested over it
 * in test/client/redirect-credentials.test.ts.
 */
const CREDS = {
  'x-owner-token': 'owner-secret',
  'x-visitor-token': 'visitor-secret',
  'x-upload-auth': 'upload-secret',
  'x-download-ticket': 'ticket-secret',
  authorization: 'Basic dXNlcjpwdw==',
};
const noRetry = { retry: { retries: 0 } };

describe('the outbound-request layer', () => {
  let s: StandIns;
  before(async () => {
    s = await startStandIns();
  });
  after(() => s.close());

  for (const status of [301, 302, 303, 307, 308]) {
    test(`a ${status} to another origin is refused, naming it, and nothing reaches that origin`, async () => {
      s.behave = { kind: 'redirect-away', status };
      const before = s.elsewhereSeen.length;
      const error = await homeJson(
        'read notifications',
        `${s.home}/api/site/folders/x/notifications?uploadAuth=q`,
        'notifications',
        { method: 'PUT', credentials: CREDS, json: { onUpload: true } },
        noRetry,
      ).catch((e: unknown) => e);
      assert.ok(error instanceof RedirectRefusedError, String(error));
      assert.ok(error instanceof ProtocolError, 'a protocol error, as the CLI reports it');
      assert.equal(error.status, status);
      assert.match(error.message, /^read notifications: /);
      assert.ok(error.message.includes(`another origin, ${s.elsewhere}`), error.message);
      assert.equal(s.elsewhereSeen.length, before, 'the other origin got no request at all');
    });
  }

  test('a redirect on the same origin is refused too (one rule; a browser cannot tell them apart)', async () => {
    s.behave = { kind: 'redirect-same' };
    const seen = s.homeSeen.length;
    const error = await homeEmpty(
      'delete folder',
      `${s.home}/api/site/folders/x`,
      { method: 'DELETE', credentials: CREDS },
      noRetry,
    ).catch((e: unknown) => e);
    assert.ok(error instanceof RedirectRefusedError, String(error));
    assert.match(error.message, /on the same origin/);
    assert.equal(s.homeSeen.length, seen + 1, 'the redirect target was not asked');
  });

  test('a chunk download may see its redirect (allowRedirect), and the layer does not follow it', async () => {
    s.behave = { kind: 'redirect-away' };
    const before = s.elsewhereSeen.length;
    const response = await homeRequest(
      'GET chunk',
      `${s.home}/c/00001`,
      { credentials: CREDS, allowRedirect: true },
      noRetry,
    );
    assert.equal(response.status, 307);
    assert.equal(response.headers.get('location'), `${s.elsewhere}/c/00001`);
    assert.equal(s.elsewhereSeen.length, before);
  });

  test('credentials go to the home origin on a call that is answered', async () => {
    s.behave = { kind: 'json', body: { url: 'x' } };
    const got = await homeJson('probe', `${s.home}/probe`, 'chunkLocation', { credentials: CREDS }, noRetry);
    assert.deepEqual(got, { url: 'x' });
    const last = s.homeSeen.at(-1)!;
    assert.equal(last.headers['x-owner-token'], 'owner-secret');
    assert.equal(last.headers.accept, 'application/json');
  });

  test('a foreign answer `{}` is refused, naming the call and the missing field', async () => {
    s.behave = { kind: 'json', body: {} };
    for (const [name, schema] of Object.entries(answerSchemas)) {
      const required = (schema as { required?: readonly string[] }).required ?? [];
      const error = await homeJson(
        `call ${name}`,
        `${s.home}/x`,
        name as keyof typeof answerSchemas,
        {},
        noRetry,
      ).catch((e: unknown) => e);
      assert.ok(error instanceof ProtocolError, `${name}: ${String(error)}`);
      assert.ok(error.message.startsWith(`call ${name}: unexpected answer: `), error.message);
      if (required.length > 0) assert.match(error.message, new RegExp(`${required[0]} is required`), error.message);
    }
  });

  test('a wrong type, a wrong enum and a body that is not JSON are refused; extra fields are not', async () => {
    s.behave = { kind: 'json', body: { ticket: 't', expiresAt: '1', downloads: 1, maxDownloads: null } };
    await assert.rejects(
      homeJson('start download', `${s.home}/x`, 'downloadTicket', {}, noRetry),
      /expiresAt must be an integer/,
    );
    s.behave = {
      kind: 'json',
      body: { events: [{ at: 1, kind: 'teleport', fileId: 'f', filename: null, sealedKey: null, ip: null }] },
    };
    await assert.rejects(
      homeJson('read activity', `${s.home}/x`, 'activity', {}, noRetry),
      /events\[0\]\.kind must be one of/,
    );
    s.behave = {
      kind: 'handler',
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>a captive portal</html>');
      },
    };
    await assert.rejects(
      homeJson('open folder', `${s.home}/x`, 'folderInfo', {}, noRetry),
      /open folder: unexpected answer: answer is not JSON/,
    );
    s.behave = { kind: 'json', body: { url: 'https://bucket/x', newerField: 1 } };
    assert.deepEqual(await homeJson('chunk', `${s.home}/x`, 'chunkLocation', {}, noRetry), {
      url: 'https://bucket/x',
      newerField: 1,
    });
  });

  test('a foreign request carries no credential header, whatever it is given, nor follows one elsewhere', async () => {
    const headers = { ...CREDS, 'x-amz-meta-a': 'kept', Cookie: 'a=b' };
    const before = s.elsewhereSeen.length;
    const response = await foreignRequest(
      'PUT chunk 1',
      `${s.elsewhere}/bucket/00001?X-Amz-Signature=s`,
      { method: 'PUT', headers, body: 'x' },
      noRetry,
    );
    assert.equal(response.status, 200);
    const seen = s.elsewhereSeen.slice(before);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.headers['x-amz-meta-a'], 'kept');
    assert.deepEqual(leaks(seen), []);
    // And through a redirect from the home origin (S3 may answer 307): still nothing of ours.
    s.behave = { kind: 'redirect-away' };
    await foreignRequest('GET chunk 1', `${s.home}/bucket/00001`, { headers }, noRetry);
    assert.deepEqual(leaks(s.elsewhereSeen.slice(before)), []);
    assert.ok(s.elsewhereSeen.length > before + 1, 'the redirect was followed');
  });

  test('the credential header list names every credential the clients send', () => {
    for (const name of Object.keys(CREDS)) assert.ok(CREDENTIAL_HEADERS.includes(name), name);
  });
});
