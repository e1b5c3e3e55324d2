import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { licenseSchemas } from '@edgekeep/contract';
import { call, makeTenants, postgresReachable, startTestApp, type TestApp } from '../../../test/harness';
import { foreignSigner, licenseTerms, tamper } from '../../../test/license-fixtures';
import type { ApiError } from '../../http/errors';
import { readLicense, signLicense } from './license-key';
import { assertCanCreate, clientLicenseView, registerUsageCounter } from './limits';
import { licenseSigner } from './signing-key';

const lane = (await postgresReachable()) ? describe : describe.skip;
type Kind = licenseSchemas.UsageKind;

const EXCEEDED: Record<Kind, number> = { site: 205001, node: 202002, zone: 201003, domain: 401002, autoSSL: 401004, port: 401007 };
const KINDS = Object.keys(EXCEEDED) as Kind[];

lane('limits service', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const counts = new Map<Kind, number>();
  const removers: (() => void)[] = [];

  const outcome = (p: Promise<unknown>) => p.then(() => 'allowed', (e: ApiError) => e.code);
  const check = (kind: Kind, opts: { adding?: number; layer?: 4 | 7; clientId?: number } = {}) =>
    outcome(assertCanCreate(t.deps, { clientId: opts.clientId ?? f.clientA.id, kind, adding: opts.adding, layer: opts.layer }));
  async function issue(over: Record<string, unknown>, clientID = f.clientA.id) {
    const made = await call(t, 'POST', 'license', { token: f.tokens.admin, body: licenseTerms(over) });
    return (await call(t, 'POST', 'license/issuing', { token: f.tokens.admin, body: { id: made.body.data.id, clientID } })).body.data;
  }

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t, { licensed: false });
    for (const kind of KINDS) removers.push(registerUsageCounter(kind, async (_deps, clientId) => (clientId === f.clientA.id ? (counts.get(kind) ?? 0) : 0)));
  });
  afterEach(() => {
    counts.clear();
    vi.useRealTimers();
  });
  afterAll(async () => {
    for (const remove of removers) remove();
    await t.close();
  });

  it('refuses a client without a license with 101022', async () => {
    for (const kind of KINDS) expect(await check(kind, { clientId: f.clientB.id })).toBe(101022);
  });

  it('refuses each kind at exactly limit + 1 with its own code', async () => {
    await issue({ siteLimit: 3, nodeLimit: 3, zoneLimit: 3, domainLimit: 3, autoSSLLimit: 3, portLimit: 3, portType: '7+4' });
    for (const kind of KINDS) {
      counts.set(kind, 2);
      expect(await check(kind), `${kind} 2 + 1`).toBe('allowed');
      expect(await check(kind, { adding: 2 }), `${kind} 2 + 2`).toBe(EXCEEDED[kind]);
      counts.set(kind, 3);
      expect(await check(kind), `${kind} 3 + 1`).toBe(EXCEEDED[kind]);
    }
    counts.set('site', 3);
    await expect(assertCanCreate(t.deps, { clientId: f.clientA.id, kind: 'site' })).rejects.toMatchObject({
      options: { extra: { kind: 'site', limit: 3, current: 3, adding: 1 } },
    });
  });

  it('allows any number when the limit is 0', async () => {
    await issue({ siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7+4' });
    for (const kind of KINDS) {
      counts.set(kind, 1_000_000);
      expect(await check(kind, { adding: 500 }), kind).toBe('allowed');
    }
  });

  it('allows layer 4 only under a 7+4 license (101023)', async () => {
    await issue({ portType: '7' });
    expect(await check('port')).toBe(101023);
    expect(await check('node', { layer: 4 })).toBe(101023);
    expect(await check('node', { layer: 7 })).toBe('allowed');
    expect(await check('site')).toBe('allowed');
    await issue({ portType: '7+4' });
    expect(await check('port')).toBe('allowed');
    expect(await check('node', { layer: 4 })).toBe('allowed');
  });

  it('refuses creation with 101019 once the license expired, and 101022 before it starts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await issue({ days: 1 });
    expect(await check('site')).toBe('allowed');
    vi.setSystemTime(Date.now() + 86_400_000 + 1000);
    expect(await check('site')).toBe(101019);
    // A day later the session's access token has expired too: ask the service the screen's call uses.
    expect(await clientLicenseView(t.deps, f.clientA.id)).toMatchObject({ expired: true, daysLeft: 0 });
    vi.useRealTimers();

    await issue({ days: 3, startAt: new Date(Date.now() - 10 * 86_400_000).toISOString() });
    expect(await check('zone')).toBe(101019);
    await issue({ days: 3, startAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(await check('zone')).toBe(101022);
  });

  it('refuses a stored key that was changed (900001) or signed by another license server (101024)', async () => {
    const issued = await issue({ domainLimit: 1 });
    const raise = tamper(issued.key, 10, 1000);
    const stored = t.deps.db.updateTable('license_activations').where('client_id', '=', f.clientA.id);
    await stored.set({ license_key: raise }).execute();
    expect(await check('domain')).toBe(900001);
    expect((await call(t, 'GET', 'client/license', { token: f.tokens.clientA })).body.code).toBe(900001);

    const doc = readLicense(licenseSigner(t.dataDir), issued.key);
    await stored.set({ license_key: signLicense(foreignSigner(), { ...doc, domainLimit: 1000 }) }).execute();
    expect(await check('domain')).toBe(101024);
    await stored.set({ license_key: signLicense(licenseSigner(t.dataDir), { ...doc, clientId: f.clientB.id }) }).execute();
    expect(await check('domain')).toBe(900001);
  });

  it('shows the client its usage from the registered counters; kinds without a counter count 0', async () => {
    for (const remove of removers.splice(2)) remove();
    counts.set('site', 4).set('node', 2).set('zone', 9);
    await issue({ siteLimit: 10, nodeLimit: 0 });
    const r = await call(t, 'GET', 'client/license', { token: f.tokens.clientA });
    expect(r.body.data.usage).toEqual({
      site: { used: 4, limit: 10 },
      node: { used: 2, limit: 0 },
      zone: { used: 0, limit: 2 },
      domain: { used: 0, limit: 100 },
      autoSSL: { used: 0, limit: 20 },
      port: { used: 0, limit: 10 },
    });
  });
});
