import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DASHBOARD } from '../packages/contract/src/schemas/dashboard';
import { createAnalyticsStore } from '../apps/api/src/analytics/store';
import { launchBrowser } from '../e2e/browser';
import { api, startServer, startSmtpSink } from '../e2e/harness';
import { licensedClient, signInByMail, userWithPlan } from '../e2e/tenants';
import { generate } from './analytics';
import { percentile, summary } from './stats';

const DAY = 86_400_000;
const PASSWORD = 'dashboard paint bench';
const WIDGETS = DEFAULT_DASHBOARD.pages[0].widgets;
const CHARTS = WIDGETS.filter((w) => w.type.endsWith('Chart')).length;

/** Every widget of the default layout shows its window (its answer came), and every chart has drawn its canvas. */
const painted = ({ widgets, charts }: { widgets: number; charts: number }) => {
  const board = document.querySelector('[data-testid="widget-dashboard"]');
  const notes = [...(board?.querySelectorAll('[data-testid="window-note"]') ?? [])];
  const canvases = board?.querySelectorAll('[data-type$="Chart"] canvas').length ?? 0;
  return notes.length === widgets && notes.every((n) => n.textContent !== '---') && canvases >= charts;
};

/** The user dashboard's overview: every card shows its window, and the QPS chart its total and canvas. */
const userPainted = () => {
  const cards = document.querySelector('[data-testid="overview-cards"]');
  const notes = [...(cards?.querySelectorAll('[data-testid="window-note"]') ?? [])];
  const qps = document.querySelector('[data-testid="qps-chart"]');
  return notes.length > 0 && notes.every((n) => n.textContent !== '---') && !!qps?.querySelector('canvas') && !qps.textContent?.includes('---');
};

/**
 * First paint of the dashboards (page load until every card and chart of the widget dashboards' default layout, or
 * the user dashboard's overview cards and QPS chart, show their answers) over a store holding `lines` lines over 30
 * days (60 % of them of the client's site): the client's, the admin's and the site's user's, against the client
 * dashboard of a client without sites (its calls read nothing) measured in the same run.
 */
export const dashboardPaint = async ({ lines = 10_000_000, samples = 10 }: { lines?: number; samples?: number } = {}) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ek-bench-dashboard-'));
  const smtp = await startSmtpSink();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    const to = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const store = createAnalyticsStore({ dataDir });
    await store.countLines({ siteIds: [1], from: new Date(to - DAY), to: new Date(to) });
    await store.close();
    let started = performance.now();
    await generate({ file: join(dataDir, 'analytics.duckdb'), lines, days: 30, from: to - 30 * DAY });
    const generatedMs = performance.now() - started;

    server = await startServer({ DATA_DIR: dataDir, LOG_RETENTION_DAYS: '31', LOG_LEVEL: 'warn', SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: 'paint@example.com' });
    if ((await plan.newSite('busy')) !== 1) throw new Error('the generated lines are of site 1: the site must be the first one');
    const empty = (await licensedClient({ server, smtp, password: PASSWORD, email: 'empty@example.com' })).client;
    const admin = await signInByMail({ server, smtp, tier: 'admin', email: 'root@example.com', password: PASSWORD });
    started = performance.now();
    // The first call waits for the store to fold the generated lines, which may outlast one HTTP wait: it asks again.
    let month: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 10 && month?.status !== 200; i++) {
      month = await api(server, 'POST', 'client/statistics/info', { token: plan.client, body: { timeInterval: 'thirtyDays' } }).catch(() => undefined);
    }
    if (month?.status !== 200) throw new Error(`the store did not answer: ${JSON.stringify(month?.body)}`);
    const foldMs = performance.now() - started;
    const siteLines = month.body.data.cards.reqCount as number;
    console.log(`dashboard paint: ${lines} lines over 30 days generated in ${(generatedMs / 1000).toFixed(1)} s, folded in ${(foldMs / 1000).toFixed(1)} s; the client's site holds ${siteLines}`);

    browser = await launchBrowser();
    const page = await browser.context.newPage();
    type Who = { prefix: 'c' | 'a' | 'u'; token: string; tier: 'client' | 'admin' | 'user' };
    const paint = async ({ prefix, token, tier }: Who) => {
      await browser!.context.clearCookies();
      await browser!.context.addCookies(
        [['accessToken', token], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `${prefix}_${name}`, value, url: server!.url })),
      );
      const t = performance.now();
      await page.goto(`${server!.url}/${tier}/dashboard`);
      if (tier === 'user') await page.waitForFunction(userPainted, undefined, { timeout: 120_000 });
      else await page.waitForFunction(painted, { widgets: WIDGETS.length, charts: CHARTS }, { timeout: 120_000 });
      return performance.now() - t;
    };
    const cases: Record<string, Who> = {
      emptyClient: { prefix: 'c', token: empty, tier: 'client' },
      client: { prefix: 'c', token: plan.client, tier: 'client' },
      admin: { prefix: 'a', token: admin, tier: 'admin' },
      user: { prefix: 'u', token: plan.userToken, tier: 'user' },
    };
    const times: Record<string, number[]> = { emptyClient: [], client: [], admin: [], user: [] };
    // One load of each fills the browser's cache of the console's files; then the cases take turns, round by round.
    for (const who of Object.values(cases)) await paint(who);
    for (let i = 0; i < samples; i++) for (const [name, who] of Object.entries(cases)) times[name].push(await paint(who));
    const result: Record<string, unknown> = { lines, siteLines, generatedMs, foldMs };
    const base = percentile({ samples: times.emptyClient, p: 50 });
    for (const [name, samplesOf] of Object.entries(times)) {
      const p50 = percentile({ samples: samplesOf, p: 50 });
      result[name] = { p50, p99: percentile({ samples: samplesOf, p: 99 }), ratio: p50 / base };
      const label = name === 'emptyClient' ? 'client without sites (baseline)' : `${name} over ${siteLines} lines`;
      console.log(`dashboard paint, ${label}: ${summary({ samples: samplesOf })} · ${(p50 / base).toFixed(2)}× the baseline's median`);
    }
    return result;
  } finally {
    await browser?.close();
    await server?.stop();
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};
