import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fieldsOf, foreignSigner, licenseTerms, tamper } from '../../../test/license-fixtures';
import type { ApiError } from '../../http/errors';
import { readLicense, signLicense, type LicenseDocument } from './license-key';
import { licenseSigner } from './signing-key';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-license-key-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const doc: LicenseDocument = {
  licenseId: 7,
  kind: 'offline',
  clientId: 42,
  installationId: '0123456789abcdef',
  nonce: 'nonce-nonce-nonce-1234',
  ...(licenseTerms() as Pick<LicenseDocument, 'name' | 'days' | 'siteLimit' | 'nodeLimit' | 'zoneLimit' | 'domainLimit' | 'autoSSLLimit' | 'portLimit' | 'portType' | 'nodeMonitorSeconds'>),
  startAt: 1_790_000_000,
  expiresAt: 1_790_000_000 + 365 * 86_400,
  issuedAt: 1_790_000_000,
};

/** What reading a key throws: its code and extra. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (err) {
    return { code: (err as ApiError).code, extra: (err as ApiError).options.extra };
  }
  throw new Error('the key was accepted');
}

describe('license keys', () => {
  const signer = licenseSigner(dataDir);

  it('keeps the Ed25519 key pair in DATA_DIR/keys, owner-only, and reuses it', () => {
    const file = path.join(dataDir, 'keys', 'license-ed25519.pem');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(signer.privateKey.asymmetricKeyType).toBe('ed25519');
    expect(signer.keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reads back every field it signed', () => {
    const key = signLicense(signer, doc);
    expect(key).toMatch(/^EK1\.[0-9a-f]{16}\.[\w-]+\.[\w-]+$/);
    expect(readLicense(signer, key)).toEqual(doc);
    expect(readLicense(signer, `\n ${key}\n`)).toEqual(doc);
    const pem = signer.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64url');
    expect(key).not.toContain(pem.slice(-40));
  });

  it('refuses a change to any signed field with 900001', () => {
    const key = signLicense(signer, doc);
    const fields = fieldsOf(key);
    expect(fields).toHaveLength(18);
    const changed = (v: unknown) => (typeof v === 'number' ? v + 1 : v === 'offline' ? 'online' : v === '7+4' ? '7' : `${String(v)}x`);
    fields.forEach((value, index) => {
      expect(refusal(() => readLicense(signer, tamper(key, index, changed(value)))), `field ${index}`).toEqual({ code: 900001, extra: undefined });
    });
    const [head, keyId, body, sig] = key.split('.');
    const flipped = Buffer.from(sig, 'base64url');
    flipped[0] ^= 1;
    expect(refusal(() => readLicense(signer, [head, keyId, body, flipped.toString('base64url')].join('.'))).code).toBe(900001);
    expect(refusal(() => readLicense(signer, [head, keyId, body, 'AAAA'].join('.'))).code).toBe(900001);
  });

  it('refuses a key of another license server with 101024, and one that only borrows our key id with 900001', () => {
    const other = foreignSigner();
    const foreign = signLicense(other, doc);
    expect(refusal(() => readLicense(signer, foreign)).code).toBe(101024);
    const borrowed = foreign.replace(other.keyId, signer.keyId);
    expect(refusal(() => readLicense(signer, borrowed)).code).toBe(900001);
  });

  it("refuses text that is not a license key with 101003 'invalid license key'", () => {
    const key = signLicense(signer, doc);
    const [, keyId, body, sig] = key.split('.');
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const text of [
      'garbage',
      `EK2.${keyId}.${body}.${sig}`,
      `EK1.${keyId}.${body}`,
      `${key}.extra`,
      `EK1.${keyId}.${body}!.${sig}`,
      `EK1.${keyId}.${encode({ licenseId: 7 })}.${sig}`,
      `EK1.${keyId}.${encode(fieldsOf(key).slice(1))}.${sig}`,
      tamper(key, 0, 'seven'),
      tamper(key, 7, -1),
      tamper(key, 13, '4'),
      `EK1.${keyId}.${Buffer.from('not json').toString('base64url')}.${sig}`,
    ]) {
      expect(refusal(() => readLicense(signer, text)), text).toEqual({ code: 101003, extra: 'invalid license key' });
    }
  });
});
