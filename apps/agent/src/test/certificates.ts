import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway self-signed certificate for a host name (and more names, valid for `days`), made with the openssl CLI. */
export const selfSignedCertificate = async ({ host, names = [host], days = 1 }: { host: string; names?: string[]; days?: number }) => {
  const dir = await mkdtemp(join(tmpdir(), 'ek-cert-'));
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(
        'openssl',
        ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', String(days), '-subj', `/CN=${host}`,
          '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
        (err, _o, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve()),
      ),
    );
    return { chain: await readFile(join(dir, 'cert.pem'), 'utf8'), key: await readFile(join(dir, 'key.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
