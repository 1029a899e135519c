import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildDocsAssets, buildDocsSite, docsBuildDir, projectRoot } from '../../src/docs/build.js';
import { tempDir, useServer } from '../support/server.js';

/**
 * The docs site's pages and assets are built at build time (npm run build) into files with
 * pre-compressed variants, and served as those files: the stylesheet is CSS, not a string in the code.
 */
const srv = useServer();

test('the build writes each asset with .br and .gz variants of the same bytes, and a manifest', async () => {
  const out = join(await tempDir('webfolder-docs-build-'), 'docs');
  try {
    const names = await buildDocsAssets(projectRoot(), out);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(manifest, names);
    assert.match(names.css, /^docs-[\w-]{10}\.css$/);
    const css = await readFile(join(projectRoot(), 'src', 'docs', 'assets', 'docs.css'));
    for (const name of Object.values(names)) {
      const body = await readFile(join(out, '_assets', name));
      assert.deepEqual(gunzipSync(await readFile(join(out, '_assets', `${name}.gz`))), body, `${name}.gz`);
      assert.deepEqual(brotliDecompressSync(await readFile(join(out, '_assets', `${name}.br`))), body, `${name}.br`);
    }
    assert.deepEqual(await readFile(join(out, '_assets', names.css)), css, 'the stylesheet is the CSS file as written');
  } finally {
    await rm(join(out, '..'), { recursive: true, force: true });
  }
});

test('the server answers with the pre-compressed variant the client accepts', async () => {
  const page = await (await fetch(`${srv.baseUrl}/docs/`)).text();
  const css = /<link rel="stylesheet"[^>]* href="([^"]+\.css)"/.exec(page)?.[1];
  assert.ok(css, 'the page links its stylesheet');
  const { hostname, port } = new URL(srv.baseUrl);
  const get = (encoding: string) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = request({ host: hostname, port, path: css, headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  const source = await readFile(join(projectRoot(), 'src', 'docs', 'assets', 'docs.css'));
  const br = await get('br');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.match(String(br.headers['content-type']), /^text\/css/);
  assert.match(String(br.headers.vary), /accept-encoding/i);
  assert.deepEqual(brotliDecompressSync(br.body), source);
  const gz = await get('gzip');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.body), source);
  const plain = await get('identity');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(plain.body, source);
});

test('the build renders every page to HTML with .br and .gz variants, and the server sends those files', async () => {
  const out = join(await tempDir('webfolder-docs-site-'), 'docs');
  try {
    const site = await buildDocsSite(projectRoot(), '/docs', join(projectRoot(), 'docs'), out);
    assert.deepEqual(JSON.parse(await readFile(join(out, 'site.json'), 'utf8')), site);
    const slugs = (await readdir(join(projectRoot(), 'docs')))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3));
    assert.deepEqual([...site.pages].sort(), slugs.sort(), 'a page for every docs/*.md');
    for (const slug of site.pages) {
      const file = join(out, 'pages', `${slug}.html`);
      const body = await readFile(file);
      assert.match(body.toString(), /^<!doctype html>/, slug);
      assert.deepEqual(gunzipSync(await readFile(`${file}.gz`)), body, `${slug}.html.gz`);
      assert.deepEqual(brotliDecompressSync(await readFile(`${file}.br`)), body, `${slug}.html.br`);
    }
  } finally {
    await rm(join(out, '..'), { recursive: true, force: true });
  }
  // The server answers a page with the build's file (dist/docs-site), compressed ahead of time.
  const built = await readFile(join(docsBuildDir(), 'pages', 'quick-start.html'));
  const { hostname, port } = new URL(srv.baseUrl);
  const br = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: '/docs/quick-start', headers: { 'accept-encoding': 'br' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.match(String(br.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(String(br.headers['content-security-policy']), /script-src 'none'/);
  assert.deepEqual(brotliDecompressSync(br.body), built);
});
