import { makeInfra } from '../apps/api/test/fixtures';
import { call, startTestApp } from '../apps/api/test/harness';
const t = await startTestApp({ LOG_LEVEL: 'warn' });
const f = await makeInfra(t);
const sites = [f.a.site];
for (let s = 1; s < 20; s++) sites.push((await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: `bulk-${s}`, productID: f.a.product, userID: f.userA.id } })).body.data.id);
const at = new Date().toISOString();
for (let i = 0; i < 100000; i += 1000) {
  const rows = Array.from({ length: 1000 }, (_, k) => ({ site_id: sites[Math.floor((i + k) / 5000)], name: `d${i + k}.bulk.example.com`, status: 1 as const, protocol: 'http' as const, force_ssl: 0 as const, hsts: 0 as const, tags: '[]', certificate_id: null, created_at: at, updated_at: at }));
  await t.deps.db.insertInto('domains').values(rows).execute();
}
if (process.env.IDX) {
  if (0)
  const { sql } = await import('kysely');
  await sql.raw('CREATE INDEX domains_created ON domains (created_at, id)').execute(t.deps.db);
  await sql.raw('CREATE INDEX domains_site_created ON domains (site_id, created_at, id)').execute(t.deps.db);
}
const time = async (label: string, url: string, token: string) => {
  const ms: number[] = [];
  for (let i = 0; i < Number(process.env.N ?? 20); i++) { const s = performance.now(); const r = await t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: { authorization: `Bearer ${token}` } }); ms.push(performance.now() - s); if (r.statusCode !== 200) throw new Error(r.body); }
  ms.sort((a, b) => a - b);
  console.log(label, 'median', ms[ms.length >> 1].toFixed(1), 'ms');
};
await time('health', 'health', f.tokens.userA);
await time('user sites', 'user/sites?page=1&pageSize=20', f.tokens.userA);
await time('site domains p1', `user/site/${sites[0]}/domains?page=1&pageSize=20`, f.tokens.userA);
await time('site domains p200', `user/site/${sites[0]}/domains?page=200&pageSize=20`, f.tokens.userA);
await time('client domains p1', 'client/domains?page=1&pageSize=20', f.tokens.clientA);
await time('client domains p900', 'client/domains?page=900&pageSize=20', f.tokens.clientA);
if (process.env.PLAN) {
  const { scopedDomains } = await import('../apps/api/src/modules/client-domains/service');
  const { readAccessToken } = await import('../apps/api/src/http/auth');
  const claims = await readAccessToken(t.deps, f.tokens.clientA);
  const q = (await scopedDomains(t.deps, { ...claims, isRoot: false, permissions: [], sessionKind: 'login', proxyAccountId: null } as any)).orderBy('domains.created_at', 'desc').orderBy('domains.id', 'desc').limit(20).offset(0);
  const c = q.compile();
  console.log(c.sql, c.parameters);
  const { sql } = await import('kysely');
  const plan = await sql.raw(`EXPLAIN QUERY PLAN ${c.sql.replace(/\?/g, () => { const v = c.parameters.shift(); return typeof v === 'string' ? `'${v}'` : String(v); })}`).execute(t.deps.db);
  console.log(plan.rows);
  const cnt = (await scopedDomains(t.deps, { ...claims } as any)).clearSelect().select((eb) => eb.fn.countAll().as('n')).compile();
  const plan2 = await sql.raw(`EXPLAIN QUERY PLAN ${cnt.sql.replace(/\?/g, () => { const v = (cnt.parameters as unknown[]).shift(); return typeof v === 'string' ? `'${v}'` : String(v); })}`).execute(t.deps.db);
  console.log(cnt.sql, plan2.rows);
}
await t.close();
process.exit(0);
