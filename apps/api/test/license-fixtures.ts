import crypto from 'node:crypto';
import type { AppDeps } from '../src/deps';
import { createLicense, issueLicense } from '../src/modules/licenses/service';
import { signerFrom } from '../src/modules/licenses/signing-key';

/** License terms that pass every rule; tests override what they are about. */
export const licenseTerms = (over: Record<string, unknown> = {}) => ({
  name: 'Pro',
  days: 365,
  siteLimit: 10,
  nodeLimit: 5,
  zoneLimit: 2,
  domainLimit: 100,
  autoSSLLimit: 20,
  portLimit: 10,
  portType: '7+4',
  nodeMonitorSeconds: 30,
  ...over,
});

/** The key pair of some other EdgeKeep platform. */
export const foreignSigner = () => signerFrom(crypto.generateKeyPairSync('ed25519').privateKey);

/** A license key with one encoded field replaced and the original signature kept. */
export function tamper(key: string, index: number, value: unknown) {
  const [version, keyId, body, signature] = key.split('.');
  const fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
  fields[index] = value;
  return [version, keyId, Buffer.from(JSON.stringify(fields)).toString('base64url'), signature].join('.');
}

/** The fields encoded in a license key, in order. */
export const fieldsOf = (key: string) => JSON.parse(Buffer.from(key.split('.')[2], 'base64url').toString('utf8')) as unknown[];

/** Issues a client a license (every limit 0, unlimited, layer 7+4, unless overridden); answers the license. */
export async function grantLicense(deps: AppDeps, clientId: number, over: Record<string, unknown> = {}) {
  const terms = licenseTerms({ siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, ...over });
  const license = await createLicense(deps, terms as Parameters<typeof createLicense>[1]);
  return issueLicense(deps, { id: license.id, clientID: clientId });
}
