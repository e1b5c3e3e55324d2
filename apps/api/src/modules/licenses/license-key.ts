import crypto from 'node:crypto';
import { Codes, licenseSchemas } from '@edgekeep/contract';
import { z } from 'zod';
import { ApiError } from '../../http/errors';
import type { LicenseSigner } from './signing-key';

const { LICENSE_KINDS, LICENSE_PORT_TYPES, INVALID_LICENSE_KEY } = licenseSchemas;
const VERSION = 'EK1';
const seconds = z.number().int().min(0);
const count = z.number().int().min(0);

/**
 * Every field a license key signs, in the order it is encoded. Times are unix seconds. An online key carries
 * the issuing installation's id and an empty nonce; an offline key carries the registration request's.
 */
const payload = z.tuple([
  z.number().int().positive(), // licenseId
  z.enum(LICENSE_KINDS), // kind
  z.number().int().positive(), // clientId
  z.string(), // installationId
  z.string(), // nonce
  z.string(), // name
  z.number().int().positive(), // days
  count, // siteLimit
  count, // nodeLimit
  count, // zoneLimit
  count, // domainLimit
  count, // autoSSLLimit
  count, // portLimit
  z.enum(LICENSE_PORT_TYPES), // portType
  z.number().int().positive(), // nodeMonitorSeconds
  seconds, // startAt
  seconds, // expiresAt
  seconds, // issuedAt
]);
type Payload = z.infer<typeof payload>;

export type LicenseDocument = {
  licenseId: number;
  kind: Payload[1];
  clientId: number;
  installationId: string;
  nonce: string;
  name: string;
  days: number;
  siteLimit: number;
  nodeLimit: number;
  zoneLimit: number;
  domainLimit: number;
  autoSSLLimit: number;
  portLimit: number;
  portType: Payload[13];
  nodeMonitorSeconds: number;
  startAt: number;
  expiresAt: number;
  issuedAt: number;
};

const toPayload = (d: LicenseDocument): Payload => [
  d.licenseId, d.kind, d.clientId, d.installationId, d.nonce, d.name, d.days, d.siteLimit, d.nodeLimit, d.zoneLimit,
  d.domainLimit, d.autoSSLLimit, d.portLimit, d.portType, d.nodeMonitorSeconds, d.startAt, d.expiresAt, d.issuedAt,
];

const fromPayload = (p: Payload): LicenseDocument => {
  const [licenseId, kind, clientId, installationId, nonce, name, days, siteLimit, nodeLimit, zoneLimit, domainLimit,
    autoSSLLimit, portLimit, portType, nodeMonitorSeconds, startAt, expiresAt, issuedAt] = p;
  return { licenseId, kind, clientId, installationId, nonce, name, days, siteLimit, nodeLimit, zoneLimit, domainLimit,
    autoSSLLimit, portLimit, portType, nodeMonitorSeconds, startAt, expiresAt, issuedAt };
};

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * A license key: `EK1.<issuer key id>.<base64url JSON of the fields>.<base64url Ed25519 signature>`, the
 * signature covering everything before it.
 */
export function signLicense(signer: LicenseSigner, doc: LicenseDocument) {
  const signed = `${VERSION}.${signer.keyId}.${b64(JSON.stringify(toPayload(doc)))}`;
  return `${signed}.${b64(crypto.sign(null, Buffer.from(signed), signer.privateKey))}`;
}

const invalidKey = () => new ApiError(Codes.Parameter, { extra: INVALID_LICENSE_KEY });

function parts(text: string) {
  const [version, keyId, body, signature, ...rest] = text.trim().split('.');
  const wellFormed = version === VERSION && !rest.length && [keyId, body, signature].every((p) => p && /^[\w-]+$/.test(p));
  if (!wellFormed) throw invalidKey();
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw invalidKey();
  }
  const parsed = payload.safeParse(fields);
  if (!parsed.success) throw invalidKey();
  return { keyId, signed: `${version}.${keyId}.${body}`, signature: Buffer.from(signature, 'base64url'), doc: fromPayload(parsed.data) };
}

/**
 * Reads a license key signed by this platform: 101003 'invalid license key' when it is not one, 101024 when
 * another license server signed it, 900001 when any signed byte was changed.
 */
export function readLicense(signer: LicenseSigner, text: string): LicenseDocument {
  const { keyId, signed, signature, doc } = parts(text);
  if (keyId !== signer.keyId) throw new ApiError(Codes.InvalidLicenseServer);
  if (!crypto.verify(null, Buffer.from(signed), signer.publicKey, signature)) throw new ApiError(Codes.IllegalLicense);
  return doc;
}
