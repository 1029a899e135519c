/**
 * The release keys `webfolder verify-site` trusts without being told: Ed25519 public keys, raw and
 * base64url (a JWK's `x`), whose signature makes an instance's own site manifest a release's
 * (src/release/sign-manifest.ts). The same list is published in docs/security.md ("Verifying an
 * instance"), which says who holds the private keys. Empty until the project's release key is made
 * offline by its maintainers: until then a manifest is trusted because it came with the installed
 * package, or was given with --manifest, or its key was given with --release-key.
 */
export const RELEASE_KEYS: readonly string[] = [];
