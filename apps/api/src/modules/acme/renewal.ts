import crypto from 'node:crypto';
import { z } from 'zod';
import { acmeLibrary } from './issue';

const DAY_MS = 86_400_000;
/** Renew this long before expiry; a certificate living less than three times as long renews with a third left. */
const RENEW_BEFORE_MS = 30 * DAY_MS;

const directory = z.object({ renewalInfo: z.string().optional() });
const renewalInfo = z.object({ suggestedWindow: z.object({ start: z.string(), end: z.string() }) });

/** The authority key identifier of a DER certificate: the keyIdentifier of extension 2.5.29.35. */
function authorityKeyId(der: Buffer) {
  const oid = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x23]);
  let i = der.indexOf(oid);
  if (i < 0) return null;
  i += oid.length;
  if (der[i] === 0x01) i += 3; // critical flag
  if (der[i] !== 0x04) return null;
  i += 2; // OCTET STRING, short length
  if (der[i] !== 0x30) return null;
  i += 2; // SEQUENCE, short length
  if (der[i] !== 0x80) return null;
  return der.subarray(i + 2, i + 2 + der[i + 1]);
}

/** The ARI certificate identifier (RFC 9773): base64url(AKI keyIdentifier) "." base64url(serial DER bytes). */
export function ariCertId(leafPem: string) {
  const cert = new crypto.X509Certificate(leafPem);
  const aki = authorityKeyId(cert.raw);
  if (!aki) return null;
  let serial = Buffer.from(cert.serialNumber.length % 2 ? `0${cert.serialNumber}` : cert.serialNumber, 'hex');
  if (serial[0] & 0x80) serial = Buffer.concat([Buffer.from([0]), serial]);
  return `${aki.toString('base64url')}.${serial.toString('base64url')}`;
}

/** A moment in the CA's suggested renewal window, where its directory offers renewal information. */
async function ariRenewAt(o: { leafPem: string; directoryUrl: string }) {
  const { axios } = await acmeLibrary();
  const dir = directory.parse((await axios.get(o.directoryUrl)).data);
  const id = ariCertId(o.leafPem);
  if (!dir.renewalInfo || !id) return null;
  const info = renewalInfo.parse((await axios.get(`${dir.renewalInfo.replace(/\/$/, '')}/${id}`)).data);
  const start = Date.parse(info.suggestedWindow.start);
  const end = Date.parse(info.suggestedWindow.end);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return null;
  return new Date(start + Math.random() * (end - start)).toISOString();
}

/** When a certificate is next renewed: in the CA's ARI window where it offers one, else 30 days before expiry. */
export async function renewAtOf(o: { chain: string; notBefore: string; notAfter: string; directoryUrl: string }) {
  const leaf = (await acmeLibrary()).crypto.splitPemChain(o.chain)[0];
  const ari = leaf ? await ariRenewAt({ leafPem: leaf, directoryUrl: o.directoryUrl }).catch(() => null) : null;
  if (ari) return ari;
  const notBefore = Date.parse(o.notBefore);
  const notAfter = Date.parse(o.notAfter);
  return new Date(notAfter - Math.min(RENEW_BEFORE_MS, (notAfter - notBefore) / 3)).toISOString();
}
