import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type Secrets = { jwtKey: Uint8Array<ArrayBuffer>; dataKey: Buffer };

/**
 * The platform's own keys: the JWT signing key and the key that encrypts secrets at rest (TOTP secrets).
 * Made on first start and kept in DATA_DIR, readable by the owner only.
 */
export function loadSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'keys', 'secrets.json');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fresh = { jwtKey: crypto.randomBytes(32).toString('base64'), dataKey: crypto.randomBytes(32).toString('base64') };
    fs.writeFileSync(file, JSON.stringify(fresh), { mode: 0o600, flag: 'wx' });
  }
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { jwtKey: string; dataKey: string };
  return { jwtKey: new Uint8Array(Buffer.from(raw.jwtKey, 'base64')), dataKey: Buffer.from(raw.dataKey, 'base64') };
}
