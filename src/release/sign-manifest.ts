import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type ManifestSignature, SITE_SIGNATURE_SUFFIX } from '../domain/site-manifest.js';
import { MANIFEST_FILE } from './build-manifest.js';

/**
 * Signs a built manifest with a release key: `node dist/release/sign-manifest.js KEY.pem` writes
 * dist/site-manifest.json.sig, an Ed25519 signature of the manifest file's exact bytes that names
 * its public key (docs/security.md, "Verifying an instance": who holds the key, where its public
 * part is pinned). The key is a PKCS#8 PEM (`openssl genpkey -algorithm ed25519`).
 */
export function signManifest(manifestBytes: Buffer, privateKeyPem: string): ManifestSignature {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError('the release key is not an Ed25519 key');
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return {
    algorithm: 'ed25519',
    publicKey: String(jwk.x),
    signature: sign(null, manifestBytes, key).toString('base64url'),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [keyFile, manifestFile = MANIFEST_FILE] = process.argv.slice(2);
  if (!keyFile) {
    console.error('usage: node dist/release/sign-manifest.js KEY.pem [dist/site-manifest.json]');
    process.exit(2);
  }
  const signature = signManifest(readFileSync(manifestFile), readFileSync(keyFile, 'utf8'));
  writeFileSync(`${manifestFile}${SITE_SIGNATURE_SUFFIX}`, `${JSON.stringify(signature, null, 1)}\n`);
  console.log(`signed ${manifestFile} with the key ${signature.publicKey}`);
}
