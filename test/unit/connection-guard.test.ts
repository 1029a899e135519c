import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientKey } from '../../src/domain/client-key.js';
import { perClientCap } from '../../src/http/connections/connection-guard.js';

test('connections are counted per IPv4 address and per IPv6 /64', () => {
  assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
  assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
  const a = clientKey('2001:db8:1:2:aaaa::1');
  assert.equal(a, '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), a);
  assert.equal(clientKey('2001:DB8:1:2::9%eth0'), a);
  assert.notEqual(clientKey('2001:db8:1:3::1'), a);
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey('2001:db8::'), '2001:db8:0:0::/64');
  assert.equal(clientKey(undefined), '');
});

test('one address never gets more than three quarters of the slots', () => {
  assert.equal(perClientCap({ max: 1000, perClient: 128 }), 128);
  assert.equal(perClientCap({ max: 200, perClient: 500 }), 150);
  assert.equal(perClientCap({ max: 10, perClient: 128 }), 7);
  assert.equal(perClientCap({ max: 1, perClient: 128 }), 1);
});
