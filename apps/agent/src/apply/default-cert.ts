import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_CERT } from '../render';

const read = async (dir: string) => {
  const [chain, key] = await Promise.all([readFile(join(dir, 'default.crt'), 'utf8'), readFile(join(dir, 'default.key'), 'utf8')]);
  return { chain, key };
};

/**
 * The node's fallback certificate (self-signed, made once with openssl under PREFIX/tls): what an HTTPS port
 * shows for a name that has no certificate, and what lets nginx start before any certificate is pushed.
 */
export const defaultCertFiles = async ({ prefix }: { prefix: string }) => {
  const dir = join(prefix, 'tls');
  const existing = await read(dir).catch(() => undefined);
  const pem =
    existing ??
    (await (async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await new Promise<void>((resolve, reject) =>
        execFile(
          'openssl',
          ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650',
            '-subj', '/CN=edgekeep-default', '-keyout', join(dir, 'default.key'), '-out', join(dir, 'default.crt')],
          { timeout: 30_000 },
          (err, _o, stderr) => (err ? reject(new Error(`default certificate: ${stderr.trim() || err.message}`)) : resolve()),
        ),
      );
      return read(dir);
    })());
  return { [DEFAULT_CERT.chain]: pem.chain, [DEFAULT_CERT.key]: pem.key };
};
