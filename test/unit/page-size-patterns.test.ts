import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountFoldersQuery } from '../../src/contract/account-folders.js';
import { adminFolderListQuery } from '../../src/contract/admin.js';
import { siteListQuery } from '../../src/contract/requests.js';
import { upTo } from '../../src/contract/schema-parts.js';
import { MAX_ACCOUNT_FOLDERS_PAGE, MAX_ADMIN_PAGE, MAX_LIST_PAGE } from '../../src/domain/limits.js';

/** A page size in a query string is text: its pattern is made from the limit, never written beside it. */
test('upTo matches exactly the whole numbers 1 to max, without leading zeros', () => {
  for (const max of [1, 9, 10, 37, 100, 200, 250, 1000, 4096]) {
    const re = new RegExp(`^(${upTo(max)})$`);
    for (let n = 0; n <= max + 1100; n++) assert.equal(re.test(String(n)), n >= 1 && n <= max, `${max}: ${n}`);
    for (const text of ['', '01', '1.0', '-1', ' 1', '1e2']) assert.equal(re.test(text), false, `${max}: "${text}"`);
  }
});

test('each page size takes its limit and refuses one more', () => {
  const cases: Array<[string, number]> = [
    [adminFolderListQuery.properties.limit.pattern, MAX_ADMIN_PAGE],
    [accountFoldersQuery.properties.limit.pattern, MAX_ACCOUNT_FOLDERS_PAGE],
    [siteListQuery.properties.limit.pattern, MAX_LIST_PAGE],
  ];
  for (const [pattern, max] of cases) {
    const re = new RegExp(pattern);
    assert.ok(re.test(String(max)), `${pattern} takes ${max}`);
    assert.ok(!re.test(String(max + 1)), `${pattern} refuses ${max + 1}`);
    assert.ok(re.test('1') && !re.test('0'), pattern);
  }
});
