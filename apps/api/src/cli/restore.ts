import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { pgTarget, SQLITE_FILE } from '../modules/db-backup/backup-files';

const USAGE = `usage: npm run restore -- --file BACKUP [--data-dir DIR] [--database-url URL] [--force]
Restores a database backup made by the backup setting, with the API stopped:
  *.sqlite  is copied into DATA_DIR (or --data-dir) as ${SQLITE_FILE}; an existing database is replaced only with --force.
  *.pgdump  is loaded with pg_restore into DATABASE_URL (or --database-url), replacing the objects it holds.`;

/** Restores one backup file; answers what it wrote into. */
export async function restoreBackup({ file, dataDir, databaseUrl, force = false }: { file: string; dataDir: string; databaseUrl?: string; force?: boolean }) {
  if (!fs.existsSync(file)) throw new Error(`no backup file ${file}`);
  if (file.endsWith('.pgdump')) {
    if (!databaseUrl) throw new Error('a .pgdump backup restores into PostgreSQL: give DATABASE_URL or --database-url');
    const target = pgTarget(databaseUrl);
    await promisify(execFile)('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--exit-on-error', target.dbname, file], { env: target.env });
    return databaseUrl.replace(/\/\/[^@/]*@/, '//');
  }
  const target = path.join(dataDir, SQLITE_FILE);
  if (fs.existsSync(target) && !force) throw new Error(`${target} exists: stop the API and add --force to replace it`);
  fs.mkdirSync(dataDir, { recursive: true });
  for (const extra of ['-wal', '-shm']) fs.rmSync(`${target}${extra}`, { force: true });
  fs.copyFileSync(file, `${target}.part`);
  fs.renameSync(`${target}.part`, target);
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { file: { type: 'string' }, 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  if (!values.file) {
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const into = await restoreBackup({
      file: path.resolve(values.file),
      dataDir: path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data'),
      databaseUrl: values['database-url'] ?? (process.env.DATABASE_URL || undefined),
      force: values.force,
    });
    console.log(`restored ${values.file} into ${into}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
