import { tmpdir } from 'node:os';
import type { RouteDef } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../agent/src/test/certificates';
import { changesBetween, settledSnapshotOf, snapshotOf } from '../../test/db-snapshot';
import { makeInfra } from '../../test/fixtures';
import { lane, startTestApp, type TestApp } from '../../test/harness';
import { sampleOf, type IdFor } from '../../test/zod-sample';
import { served, toUrl } from './route';

type Infra = Awaited<ReturnType<typeof makeInfra>>;
type Pem = { chain: string; key: string };

/** Keys that name an id of a tenant's object; geo and request ids are no one's. */
const ID_KEY = /(^id|Id|ID|^ids|Ids|IDs)$|^reserved(Site|Zone)$/;
const NOT_TENANT = /^(geoIDs|reqID)$/;
/** The kinds whose ids a key names by name (`siteIDs`, `userId`); any other id key names an object of the route's own kind. */
const KINDS = ['user', 'client', 'site', 'zone', 'node', 'product'] as const;
type Kind = (typeof KINDS)[number];
const kindOf = (key: string): Kind | 'other' | undefined =>
  !ID_KEY.test(key) || NOT_TENANT.test(key) ? undefined : (KINDS.find((k) => key.toLowerCase().includes(k)) ?? 'other');
/** The path keys that scope a call to a site or zone of the caller. */
const OWN_PATH = /^(siteId|zoneID)$/;
/** Tenant A's data as it may show in an answer: its names from makeInfra and the generator's word for it. */
const A_MARKS = /alpha|tenanta|\b(zone|edge|line|plan|site)-a\b|(user|client)-a@/;
/** Calls on the caller's own account, sign-in or licence: tenant A does not make them, as they could end its session. */
const OWN_ACCOUNT = /password|login|logout|2fa|verify|proxy|account\/self|license|registration|offline|logo/;
/** Calls whose `id` keys are the caller's own names, not objects' ids: a dashboard layout's pages. */
const OWN_KEYS = /\/dashboard$/;
/** Ids low enough that tenant A made a row under each in every table of objects it made in two rounds. */
const PROBED_IDS = 12;
const ACL_RULE = { conditions: [{ field: 'ip', operator: 'eq', value: '192.0.2.10' }], action: 'deny' };

/** Bodies that the generator cannot make valid: each must pass validation, so only ownership can refuse it. */
const HAND: Record<string, (c: { id: IdFor; pem: Pem; word: string }) => unknown> = {
  'user.site.certificate.create': ({ pem, word }) => ({ name: word, certificate: pem.chain, key: pem.key }),
  'user.site.certificate.update': ({ id, pem, word }) => ({ id: id('id')?.[0], name: word, certificate: pem.chain, key: pem.key }),
  'client.account.create': ({ id, word }) => ({ email: `${word}-sub@tenant${word[0]}.test`, name: `${word}-sub`, auth: 'client', roleID: id('roleID')?.[0] }),
  'client.role.create': ({ word }) => ({ roleName: word, permissions: [] }),
  'user.role.create': ({ word }) => ({ roleName: word, permissions: [] }),
  'client.node.subNodes.add': ({ word }) => ({ ip: word === 'alpha' ? '192.0.2.77' : '192.0.2.78' }),
  'user.firewall.blacklists.create': ({ word }) => ({ ips: word === 'alpha' ? '192.0.2.10' : '192.0.2.20' }),
  'user.firewall.whitelists.create': ({ word }) => ({ ips: word === 'alpha' ? '192.0.2.11' : '192.0.2.21' }),
  'user.luaAcl.rules.create': ({ word }) => ({ ...ACL_RULE, name: word }),
  'user.luaAcl.rules.update': ({ id, word }) => ({ ...ACL_RULE, name: word, id: id('id')?.[0] }),
  'client.setting.dbBackup.update': ({ word }) => ({ enabled: false, period: 'daily', time: '03:00', path: `${tmpdir()}/ek-walk-backups-${word}`, retention: 2 }),
};

type Parts = { url: string; query: string; body: unknown; keys: string[] };

/** The keys of a request's parts that carry an id, at any depth. */
function idKeysIn(value: unknown, idFor: IdFor, into: Set<string> = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => idKeysIn(v, idFor, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (idFor(k) !== undefined) into.add(k);
      idKeysIn(v, idFor, into);
    }
  }
  return into;
}

/** The request parts of one call with the ids `idFor` gives, or the part that could not be made. */
function partsOf(def: RouteDef, idFor: IdFor, word: string, pem: Pem): Parts | string {
  const params = def.params ? sampleOf({ schema: def.params, word, idFor }) : {};
  const query = def.query ? sampleOf({ schema: def.query, word, idFor }) : {};
  const hand = HAND[def.id];
  const body = hand ? hand({ id: idFor, pem, word }) : def.body ? sampleOf({ schema: def.body, word, idFor }) : undefined;
  if (params === undefined) return 'params';
  if (query === undefined) return 'query';
  if (def.body && (body === undefined || !def.body.safeParse(body).success)) return 'body';
  const url = toUrl(def.path).replace(/:(\w+)/g, (_, k) => String((params as Record<string, unknown>)[k]));
  const search = new URLSearchParams(Object.entries(query as object).map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(',') : String(v)]));
  return { url, query: search.size ? `?${search}` : '', body, keys: [...idKeysIn([params, query, body], idFor)] };
}

const reads = (def: RouteDef) => def.method === 'GET' || def.readOnly === true;

lane('every call with another tenant’s ids', () => {
  let t: TestApp;
  let f: Infra;
  let pems: { a: Pem; b: Pem };
  let defs: RouteDef[];
  /** The ids of one tenant under a key: its own of the named kinds; of every other kind, the ids in `rest`. */
  const idsOf = (own: Record<Kind, number>, rest: number[]): IdFor => (key) => {
    const kind = kindOf(key);
    return kind === undefined ? undefined : kind === 'other' ? rest : [own[kind]];
  };
  const ownOf = (x: 'a' | 'b') => ({ user: f[x === 'a' ? 'userA' : 'userB'].id, client: f[x === 'a' ? 'clientA' : 'clientB'].id, ...f[x] });
  const send = async (def: RouteDef, token: string, p: Parts) =>
    t.app.inject({
      method: def.method,
      url: p.url + p.query,
      headers: { authorization: `Bearer ${token}` },
      ...(p.body === undefined ? {} : { payload: p.body as object }),
    });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    pems = { a: await selfSignedCertificate({ host: 'alpha.tenanta.test' }), b: await selfSignedCertificate({ host: 'bravo.tenantb.test' }) };
    // Account tenants only: a node's reach (its own zone's state and commands) is tested in agent-gateway/gateway.test.ts.
    defs = (served.get(t.app) ?? []).filter((d) => !d.public && d.auth !== 'node');
    // Tenant A makes two objects of each kind; a child takes the first of A's ids that its parent answers to.
    const ids = Array.from({ length: PROBED_IDS }, (_, i) => i + 1);
    for (const word of ['alpha', 'alpha1']) {
      for (const def of defs.filter((d) => d.tier !== 'admin' && d.method !== 'DELETE' && !reads(d) && !OWN_ACCOUNT.test(d.path))) {
        for (const n of ids) {
          const p = partsOf(def, idsOf(ownOf('a'), [n]), word, pems.a);
          if (typeof p === 'string') break;
          const r = await send(def, def.tier === 'client' ? f.tokens.clientA : f.tokens.userA, p);
          if (r.statusCode < 300 || !p.keys.some((k) => kindOf(k) === 'other')) break;
        }
      }
    }
  }, 120_000);
  afterAll(() => t.close());

  // Refused means answered as a call naming a missing object is answered (so the answer tells nothing of the owner's
  // objects), or 401/403; a read may answer 2xx only with what it answers for a missing object (an empty list).
  it('refuses each as it refuses a missing object, shows nothing of the owner and changes nothing', async () => {
    const bOwns = new Set(Object.values(ownOf('b')));
    const foreign = Array.from({ length: PROBED_IDS }, (_, i) => i + 1).filter((id) => !bOwns.has(id));
    const a = idsOf(ownOf('a'), foreign);
    const b = idsOf(ownOf('b'), foreign);
    const missing: IdFor = (k) => a(k)?.map(() => 999_999);
    const ownPath = (rest: IdFor): IdFor => (k) => (OWN_PATH.test(k) ? b(k) : rest(k));
    /** The same ids with the single id taken from the n-th of the list. */
    const nth = (ids: IdFor, n: number): IdFor => (k) => ids(k)?.map((_, i, all) => all[(i + n) % all.length]);
    const failures: string[] = [];
    let walked = 0;
    let before = await settledSnapshotOf(t.deps.db);
    for (const def of defs.filter((d) => !OWN_KEYS.test(d.path))) {
      const token = def.tier === 'client' ? f.tokens.clientB : f.tokens.userB;
      const whole = partsOf(def, a, 'bravo', pems.b);
      if (typeof whole === 'string') {
        failures.push(`${def.id}: no valid ${whole}: write one in HAND`);
        continue;
      }
      if (whole.keys.length === 0) continue;
      // All of tenant A's ids; then, where the call names other objects too, B's own site or zone with A's objects.
      const variants: [IdFor, IdFor][] = [[a, missing]];
      if (whole.keys.some((k) => OWN_PATH.test(k)) && whole.keys.some((k) => !OWN_PATH.test(k))) variants.push([ownPath(a), ownPath(missing)]);
      // A single id of no named kind is tried with each of A's ids, as one table may hold several kinds of objects.
      const single = whole.keys.some((k) => kindOf(k) === 'other' && !/s$/.test(k));
      for (const [ids, none] of variants) {
        for (let n = 0; n < (single ? foreign.length : 1); n++) {
          walked++;
          const p = partsOf(def, nth(ids, n), 'bravo', pems.b) as Parts;
          const absent = await send(def, token, partsOf(def, none, 'bravo', pems.b) as Parts);
          const res = await send(def, token, p);
          const where = `${def.method} ${p.url}${p.query} ${JSON.stringify(p.body ?? '').slice(0, 120)}`;
          const answer = (r: typeof res) => `${r.statusCode} ${String(r.headers['content-type'] ?? '').includes('json') ? (r.json() as { code?: number }).code : ''}`;
          const likeMissing = res.statusCode >= 400 && res.statusCode < 500 && answer(res) === answer(absent);
          if (res.statusCode < 300 && A_MARKS.test(res.body)) failures.push(`${where}: shows tenant A: ${res.body.slice(0, 200)}`);
          else if (res.statusCode < 300 && reads(def) && res.body !== absent.body) {
            failures.push(`${where}: answers otherwise than for a missing object: ${res.body.slice(0, 160)} / ${absent.statusCode} ${absent.body.slice(0, 100)}`);
          } else if (res.statusCode < 300 && !reads(def)) failures.push(`${where}: accepted ${res.statusCode} ${res.body.slice(0, 120)}`);
          else if (res.statusCode >= 300 && !likeMissing && res.statusCode !== 401 && res.statusCode !== 403) {
            failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 160)}, a missing object: ${absent.statusCode} ${absent.body.slice(0, 100)}`);
          }
        }
      }
      // Every attempt of the call at once: a snapshot per attempt would take minutes on PostgreSQL.
      const after = await snapshotOf(t.deps.db);
      for (const change of changesBetween(before, after)) failures.push(`${def.id}: changed ${change}`);
      before = after;
    }
    expect(Object.keys(HAND).filter((id) => !defs.some((d) => d.id === id))).toEqual([]);
    expect(walked).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  }, 120_000);
});
