import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The platform's license key pair; `keyId` names it inside every key it signs. */
export type LicenseSigner = { privateKey: KeyObject; publicKey: KeyObject; keyId: string };

/** The first 16 hex digits of the SHA-256 of a public key's DER form. */
const keyIdOf = (publicKey: KeyObject) =>
  crypto.createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);

export const signerFrom = (privateKey: KeyObject): LicenseSigner => {
  const publicKey = crypto.createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
};

const loaded = new Map<string, LicenseSigner>();

/**
 * The Ed25519 key pair that signs license keys: made on first start in DATA_DIR/keys, readable by the owner
 * only. The private key never leaves this file and the process.
 */
export function licenseSigner(dataDir: string): LicenseSigner {
  const cached = loaded.get(dataDir);
  if (cached) return cached;
  const file = path.join(dataDir, 'keys', 'license-ed25519.pem');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    try {
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another instance made it first: use that one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const signer = signerFrom(crypto.createPrivateKey(fs.readFileSync(file)));
  loaded.set(dataDir, signer);
  return signer;
}
