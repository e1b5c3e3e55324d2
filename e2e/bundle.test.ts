import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './harness';

const DIST = path.join(ROOT, 'apps/web/dist');
/** Budgets in gzip bytes: the entry chunk, and everything the first page loads before any screen. */
const ENTRY_BUDGET = 30_000;
const STARTUP_BUDGET = 260_000;
const SCREENS = ['login-page', 'verify-account-page', 'create-password-page', 'verify-mail-page', 'console-layout', 'dashboard-page',
  'user-information-page', 'change-password-page', 'dns-setting-page', 'error-page', 'sites-page', 'site-setting-page',
  'admin-dashboard-page', 'licenses-page', 'offline-licenses-page', 'system-setting-page', 'statistics-page', 'customize-page',
  'logger-page', 'log-export-page'];

const gzipSize = (file: string) => gzipSync(fs.readFileSync(path.join(DIST, file))).length;

describe('the built console bundle', () => {
  let entry: string;
  let startup: string[];

  // built by the lane's global setup (build-once.ts), as `npm start` builds it
  beforeAll(() => {
    const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
    entry = /<script type="module" crossorigin src="\/(assets\/[^"]+\.js)"/.exec(html)![1];
    startup = [entry, ...[...html.matchAll(/rel="modulepreload" crossorigin href="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1])];
  }, 120_000);

  it('keeps the entry chunk small', () => {
    const size = gzipSize(entry);
    console.info(`entry chunk ${entry}: ${fs.statSync(path.join(DIST, entry)).size} bytes, ${size} gzip`);
    expect(size).toBeLessThan(ENTRY_BUDGET);
  });

  it('loads each screen lazily, in its own chunk outside the startup set', () => {
    const total = startup.reduce((sum, f) => sum + gzipSize(f), 0);
    console.info(`startup set: ${startup.length} chunks, ${total} gzip`);
    expect(total).toBeLessThan(STARTUP_BUDGET);
    const assets = fs.readdirSync(path.join(DIST, 'assets'));
    for (const screen of SCREENS) {
      const chunk = assets.find((a) => a.startsWith(`${screen}-`) && a.endsWith('.js'));
      expect(chunk, screen).toBeDefined();
      expect(startup, screen).not.toContain(`assets/${chunk}`);
    }
  });

  it('ships the service worker and keeps zod and ECharts out of the startup set', () => {
    expect(fs.existsSync(path.join(DIST, 'sw.js'))).toBe(true);
    for (const file of startup) {
      const code = fs.readFileSync(path.join(DIST, file), 'utf8');
      expect(code, file).not.toContain('ZodError');
      expect(code, file).not.toContain('registerMap');
    }
  });
});
