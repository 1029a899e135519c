import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diskFile, upload } from '../../src/client/node/index.js';
import { useCliServer } from '../support/cli.js';

/**
 * The CLI shows a name's bidirectional controls and does not apply them (src/domain/shown-names.ts):
 * `info` and `activity` print `invoice[U+202E]gpj.exe`, and `download` writes the file under that
 * name, for a file another client stored with the raw override inside.
 */
const fx = useCliServer('cli-shown-names');
const recipient = fx.as('recipient');

describe('the CLI and names with bidirectional controls', () => {
  test('info prints the marks, download writes them, nothing prints the raw control', async () => {
    const path = join(fx.dir, 'plain.bin');
    await writeFile(path, 'MZ not really a program\n');
    // The library stores the name it is given as it is (as the page does with a picked file's name).
    const file = await diskFile(path, { name: 'invoice\u202Egpj.exe' });
    const { link } = await upload([file], { server: fx.server.baseUrl, mode: 'share' });

    const info = await recipient('info', link);
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.stdout, /invoice\[U\+202E\]gpj\.exe/);
    assert.doesNotMatch(info.stdout + info.stderr, /\u202e/);

    const dest = join(fx.dir, 'received');
    const dl = await recipient('download', link, dest);
    assert.equal(dl.code, 0, dl.stderr);
    assert.doesNotMatch(dl.stdout + dl.stderr, /\u202e/);
    assert.deepEqual(await readdir(dest), ['invoice[U+202E]gpj.exe']);
  });
});
