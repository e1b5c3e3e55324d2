import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';

export const SQLITE_FILE = 'edgekeep.sqlite';
const run = promisify(execFile);
const stamp = (at: Date) => at.toISOString().replace(/[-:.]/g, '');
const prefixOf = (clientId: number) => `edgekeep-${clientId}-`;
const isBackup = (clientId: number, name: string) => name.startsWith(prefixOf(clientId)) && /\.(sqlite|pgdump)$/.test(name);

/** A directory is usable when it exists (or can be made) and a file can be written into it. */
export async function writableDir(dir: string) {
  try {
    await fs.mkdir(dir, { recursive: true });
    const probe = path.join(dir, `.edgekeep-probe-${process.pid}`);
    await fs.writeFile(probe, '');
    await fs.rm(probe);
    return true;
  } catch {
    return false;
  }
}

type Source = { dataDir: string; databaseUrl?: string };

/** pg_dump/pg_restore arguments for a URL: the password goes in their environment, never on a command line. */
export function pgTarget(url: string) {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: `--dbname=${u.toString()}`, env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/**
 * One consistent copy of the whole configuration database: SQLite through its online backup API (writers go on),
 * PostgreSQL through pg_dump in its custom format (for pg_restore). Written beside as `.part`, then renamed.
 */
export async function writeBackup({ source, dir, clientId, at = new Date() }: { source: Source; dir: string; clientId: number; at?: Date }) {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${prefixOf(clientId)}${stamp(at)}.${source.databaseUrl ? 'pgdump' : 'sqlite'}`);
  const part = `${file}.part`;
  try {
    if (source.databaseUrl) {
      const target = pgTarget(source.databaseUrl);
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${part}`, target.dbname], { env: target.env, maxBuffer: 16 * 1024 * 1024 });
    } else {
      const db = new SQLite(path.join(source.dataDir, SQLITE_FILE), { readonly: true, fileMustExist: true });
      try {
        await db.backup(part);
      } finally {
        db.close();
      }
    }
  } catch (err) {
    await fs.rm(part, { force: true });
    throw err;
  }
  await fs.rename(part, file);
  const { size } = await fs.stat(file);
  return { file, bytes: size, createdAt: at.toISOString() };
}

/** The client's backups in a directory, newest first. */
export async function listBackups({ dir, clientId }: { dir: string; clientId: number }) {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const found = await Promise.all(
    names.filter((n) => isBackup(clientId, n)).map(async (name) => {
      const file = path.join(dir, name);
      const st = await fs.stat(file);
      return { file, bytes: st.size, createdAt: st.mtime.toISOString(), name };
    }),
  );
  return found.sort((a, b) => b.name.localeCompare(a.name)).map(({ name: _name, ...rest }) => rest);
}

/** Keeps the newest `keep` backups of the client in the directory and removes the others. */
export async function pruneBackups({ dir, clientId, keep }: { dir: string; clientId: number; keep: number }) {
  const all = await listBackups({ dir, clientId });
  for (const old of all.slice(keep)) await fs.rm(old.file, { force: true });
  return all.slice(keep).length;
}
