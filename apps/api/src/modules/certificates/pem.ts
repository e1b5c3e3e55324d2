import crypto from 'node:crypto';
import { Codes } from '@edgekeep/contract';
import { ApiError } from '../../http/errors';

const BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const refuse = (field: string, message: string) => new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field, message }] } });

export type ParsedCertificate = { chain: string; subject: string; names: string[]; issuer: string; notBefore: string; notAfter: string };

/**
 * Reads an uploaded PEM chain and private key for real: every block must parse, the key must be the leaf's,
 * and names, issuer and validity come from the leaf.
 */
export function parseCertificate(chainPem: string, keyPem: string): ParsedCertificate {
  const blocks = chainPem.match(BLOCK) ?? [];
  if (!blocks.length) throw refuse('certificate', 'no PEM certificate found');
  let certs: crypto.X509Certificate[];
  try {
    certs = blocks.map((b) => new crypto.X509Certificate(b));
  } catch {
    throw refuse('certificate', 'a certificate in the chain does not parse');
  }
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(keyPem);
  } catch {
    throw refuse('key', 'the private key does not parse');
  }
  const leaf = certs[0];
  if (!leaf.checkPrivateKey(key)) throw refuse('key', 'the private key does not match the certificate');
  const sans = (leaf.subjectAltName ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(leaf.subject)?.[1]?.toLowerCase();
  return {
    chain: blocks.join('\n') + '\n',
    subject: leaf.subject.replace(/\n/g, ', '),
    names: sans.length ? sans : cn ? [cn] : [],
    issuer: leaf.issuer.replace(/\n/g, ', '),
    notBefore: new Date(leaf.validFrom).toISOString(),
    notAfter: new Date(leaf.validTo).toISOString(),
  };
}

/** Whether a certificate name covers a domain: the same name, or a wildcard one label deep. */
export function covers(names: string[], domain: string) {
  return names.some((n) => n === domain || (n.startsWith('*.') && !domain.startsWith('*.') && domain.split('.').slice(1).join('.') === n.slice(2)));
}
