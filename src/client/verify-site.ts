import { createHash, createPublicKey, verify } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { siteOfLink } from '../domain/links.js';
import {
  type ManifestSignature,
  parseManifest,
  parseSignature,
  SITE_MANIFEST_PATH,
  SITE_SIGNATURE_SUFFIX,
  type SiteManifest,
} from '../domain/site-manifest.js';
import { ProtocolError, WebfolderError } from '../transfer/errors.js';
import { homeRequest } from '../transfer/outbound.js';
import type { HttpOptions } from '../transfer/retry.js';
import { EXIT, type Flags, httpOf, type Io, UsageError } from './cli-common.js';
import { RELEASE_KEYS } from './release-keys.js';
import { checkReferences, checkSite, type Finding, isReleaseShell, settingsOf } from './site-check.js';

/**
 * `webfolder verify-site <url>`: does the instance at <url> serve a release's browser code, byte for
 * byte? The trusted manifest is, in this order: `--manifest FILE`; the installed package's own, when
 * the instance claims the same version; the instance's own when a release key pinned here (or given
 * with `--release-key`) signed it. `--page FILE` checks a person's saved copy of the page too (or
 * alone, without <url>). Prints OK or each finding; exits 0 only when there is none
 * (docs/security.md, "Verifying an instance").
 */
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Trusted {
  readonly manifest: SiteManifest;
  readonly bytes: Uint8Array;
  /** How it came to be trusted, for the report. */
  readonly source: string;
}

/** The installed package's manifest (dist/site-manifest.json beside src/ or dist/), or null. */
function installedManifest(): Trusted | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const file of [join(here, '../../dist/site-manifest.json'), join(here, '../site-manifest.json')]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    return { manifest: parseManifest(bytes.toString('utf8')), bytes, source: `the installed package (${file})` };
  }
  return null;
}

/** A public key given with --release-key: a PEM (SPKI) file, or a file whose first line is the raw key in base64url. */
function givenKey(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`--release-key: cannot read ${file}`);
  }
  if (text.includes('-----BEGIN')) {
    const jwk = createPublicKey(text).export({ format: 'jwk' });
    if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string')
      throw new UsageError('--release-key is not an Ed25519 public key');
    return jwk.x;
  }
  const line = text.split(/\r?\n/)[0]!.trim();
  if (!/^[A-Za-z0-9_-]{43}$/.test(line))
    throw new UsageError('--release-key: not an Ed25519 public key (PEM, or 43 characters of base64url)');
  return line;
}

/** Whether `signature` is a valid signature of `bytes` by one of `keys`. */
export function signedBy(bytes: Uint8Array, signature: ManifestSignature, keys: readonly string[]): boolean {
  if (!keys.includes(signature.publicKey)) return false;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: signature.publicKey }, format: 'jwk' });
  return verify(null, bytes, key, Buffer.from(signature.signature, 'base64url'));
}

function readGiven(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    throw new UsageError(`${what}: cannot read ${file}`);
  }
}

/** The manifest given with --manifest: its signature (FILE.sig beside it) must hold when there is one. */
function givenManifest(file: string, keys: readonly string[]): Trusted {
  const bytes = readGiven(file, '--manifest');
  let manifest: SiteManifest;
  try {
    manifest = parseManifest(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`--manifest: ${(error as Error).message}`);
  }
  const sigFile = `${file}${SITE_SIGNATURE_SUFFIX}`;
  if (!existsSync(sigFile)) return { manifest, bytes, source: `${file} (as given, unsigned)` };
  const signature = parseSignature(readFileSync(sigFile, 'utf8'));
  if (!signedBy(bytes, signature, keys))
    throw new UsageError(`--manifest: ${sigFile} is no valid signature of it by a trusted release key`);
  return { manifest, bytes, source: `${file} (signed by ${signature.publicKey})` };
}

/** The manifest the instance serves, and its signature: what it claims to run. */
async function served(
  site: string,
  http: HttpOptions,
): Promise<{ bytes: Uint8Array | null; signature: string | null }> {
  const read = async (url: string) => {
    try {
      const response = await homeRequest(
        'verify-site',
        url,
        { headers: { accept: 'application/json' } },
        { ...http, answered: [404] },
      );
      return response.status === 200 ? new Uint8Array(await response.arrayBuffer()) : null;
    } catch (error) {
      // A refusal is a finding of the check; an address where nothing answers is the command's failure.
      if (error instanceof WebfolderError || error instanceof ProtocolError) return null;
      throw error;
    }
  };
  const bytes = await read(`${site}${SITE_MANIFEST_PATH}`);
  const signature = bytes ? await read(`${site}${SITE_MANIFEST_PATH}${SITE_SIGNATURE_SUFFIX}`) : null;
  return { bytes, signature: signature ? new TextDecoder().decode(signature) : null };
}

function trustedFor(
  claimed: { version: string | null; bytes: Uint8Array | null; signature: string | null },
  flags: Flags,
  keys: readonly string[],
): Trusted {
  if (flags.manifest !== undefined) return givenManifest(flags.manifest, keys);
  const installed = installedManifest();
  if (installed && (claimed.version === null || installed.manifest.version === claimed.version)) return installed;
  if (claimed.bytes && claimed.signature) {
    try {
      const signature = parseSignature(claimed.signature);
      if (signedBy(claimed.bytes, signature, keys))
        return {
          manifest: parseManifest(new TextDecoder().decode(claimed.bytes)),
          bytes: claimed.bytes,
          source: `the instance's own, signed by the release key ${signature.publicKey}`,
        };
    } catch {
      // Not a usable signature: no manifest to trust.
    }
  }
  throw new UsageError(
    `no trusted manifest for ${claimed.version ? `webfolder ${claimed.version}` : 'this instance'}` +
      `${installed ? ` (this webfolder is ${installed.manifest.version})` : ''}: give the release's manifest with --manifest FILE`,
  );
}

/** The version a served manifest names, or null when there is none or it does not parse. */
function versionIn(bytes: Uint8Array | null): string | null {
  if (!bytes) return null;
  try {
    return parseManifest(new TextDecoder().decode(bytes)).version;
  } catch {
    return null;
  }
}

/** The checks of a saved copy of the page (`--page FILE`): the release's shell, or at least only its files. */
function checkSavedPage(file: string, trusted: Trusted, site: string | null): Finding[] {
  const html = readGiven(file, '--page').toString('utf8');
  const what = 'page (saved copy)';
  if (isReleaseShell(html, trusted.manifest)) return [];
  const findings: Finding[] = [];
  const found = settingsOf(html);
  const base =
    site ?? (found ? `http://saved.invalid${found.settings.base}`.replace(/\/+$/, '') : 'http://saved.invalid');
  const docs = found?.settings.docsUrl.replace(/\/+$/, '') ?? '';
  const pageUrl = `${base}/`;
  // "Web page, complete" saves the files beside the page and points at them by relative address.
  const local = (ref: { url: string }) => {
    if (/^[a-z][a-z0-9+.-]*:|^\//i.test(ref.url)) return null;
    const path = resolve(dirname(file), decodeURIComponent(ref.url.split(/[?#]/)[0]!));
    return existsSync(path) ? readFileSync(path) : null;
  };
  findings.push(...checkReferences(what, html, pageUrl, trusted.manifest, base, docs, local));
  const release = found?.settings.release;
  if (release && release.manifest !== sha256(trusted.bytes))
    findings.push({
      kind: 'mismatch',
      what,
      detail: `the page showed webfolder ${release.version} with manifest sha256 ${release.manifest}; the trusted manifest's is ${sha256(trusted.bytes)}`,
    });
  return findings;
}

export async function verifySiteCommand(positionals: string[], flags: Flags, io: Io): Promise<number> {
  const [url, ...more] = positionals;
  if (more.length > 0) throw new UsageError('verify-site takes one address');
  if (url === undefined && flags.page === undefined)
    throw new UsageError("verify-site needs the site's address (or --page FILE)");
  const keys = [...RELEASE_KEYS, ...(flags['release-key'] !== undefined ? [givenKey(flags['release-key'])] : [])];
  let site: string | null = null;
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
    } catch {
      throw new UsageError('verify-site: the address must be an http(s) URL');
    }
    parsed.hash = '';
    parsed.search = '';
    const login = parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : '';
    parsed.username = '';
    parsed.password = '';
    // A folder's link stands for its site; any other address is the site itself.
    site = /\/f\/[^/]+\/?$/.test(parsed.pathname) ? siteOfLink(parsed.href) : parsed.href.replace(/\/+$/, '');
    flags = { ...flags, server: login ? site.replace('://', `://${login}`) : site };
  }
  // Few retries by default: a file that does not answer is a finding, not a wait of minutes.
  const transport = httpOf(flags, io);
  const http: HttpOptions = { ...transport, retry: transport.retry ?? { retries: 2 } };
  const claimed = site ? await served(site, http) : { bytes: null, signature: null };
  let version = versionIn(claimed.bytes);
  if (version === null && flags.page !== undefined) {
    const saved = settingsOf(readGiven(flags.page, '--page').toString('utf8'));
    version = saved?.settings.release?.version ?? null;
  }
  const trusted = trustedFor({ version, ...claimed }, flags, keys);
  const findings: Finding[] = [];
  let checked = 0;
  if (site) {
    const result = await checkSite(site, trusted.manifest, http);
    findings.push(...result.findings);
    checked += result.checked;
    // The manifest the instance serves is the release's, byte for byte (the footer shows its hash).
    const what = `web ${SITE_MANIFEST_PATH}`;
    if (!claimed.bytes) findings.push({ kind: 'missing', what, detail: 'the instance serves no site manifest' });
    else if (sha256(claimed.bytes) !== sha256(trusted.bytes))
      findings.push({
        kind: 'mismatch',
        what,
        detail: `the instance serves a manifest with sha256 ${sha256(claimed.bytes)}${version ? ` (webfolder ${version})` : ''}, the trusted one's is ${sha256(trusted.bytes)}`,
      });
    checked++;
  }
  if (flags.page !== undefined) {
    findings.push(...checkSavedPage(flags.page, trusted, site));
    checked++;
  }
  const { manifest } = trusted;
  const report = {
    ok: findings.length === 0,
    site,
    release: { version: manifest.version, commit: manifest.commit, manifest: sha256(trusted.bytes) },
    trusted: trusted.source,
    checked,
    findings,
  };
  if (flags.json) io.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    const out: string[] = [
      `verifying ${site ?? flags.page} against webfolder ${manifest.version} (commit ${manifest.commit})`,
    ];
    out.push(`trusted manifest: ${trusted.source}, sha256 ${report.release.manifest}`);
    for (const f of findings) out.push(`${f.kind.toUpperCase().padEnd(8)} ${f.what}: ${f.detail}`);
    out.push(
      findings.length === 0
        ? `OK: ${checked} files and pages match the release`
        : `FAILED: ${findings.length} finding${findings.length === 1 ? '' : 's'} in ${checked} files and pages`,
    );
    io.stdout.write(`${out.join('\n')}\n`);
  }
  return findings.length === 0 ? EXIT.OK : EXIT.FAILURE;
}
