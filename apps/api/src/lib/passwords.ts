import { hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP minimum: 19 MiB memory, 2 iterations, 1 lane. */
const ARGON2ID = 2; // Algorithm.Argon2id, a const enum the compiler cannot inline here
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

/** A hash that no password matches, so a missing account costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;
export async function verifyPassword(stored: string | null, password: string) {
  decoy ??= hashPassword('decoy password that matches nothing');
  const target = stored ?? (await decoy);
  const ok = await verify(target, password).catch(() => false);
  return stored !== null && ok;
}
