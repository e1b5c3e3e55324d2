import { afterAll, beforeAll, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../../agent/src/test/certificates';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('certificates', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let shop: { chain: string; key: string };
  let other: { chain: string; key: string };
  let domainIds: Record<string, number>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    shop = await selfSignedCertificate({ host: 'shop.example.com', names: ['shop.example.com', '*.cdn.example.com'], days: 30 });
    other = await selfSignedCertificate({ host: 'other.example.com' });
    const made = await call(t, 'POST', `user/site/${f.a.site}/domains`, {
      token: f.tokens.userA,
      body: { domains: 'shop.example.com\nimg.cdn.example.com\nwww.example.com', upstreams: [{ host: '198.51.100.7' }] },
    });
    domainIds = Object.fromEntries(made.body.data.map((d: { name: string; id: number }) => [d.name, d.id]));
  });
  afterAll(() => t.close());

  const upload = (body: Record<string, string>, token = f.tokens.userA, site = f.a.site) => call(t, 'POST', `user/site/${site}/certificate`, { token, body });

  it('reads names, issuer and validity from the uploaded chain, and never answers the key', async () => {
    const r = await upload({ name: 'shop', certificate: shop.chain, key: shop.key });
    expect(r.body.data).toMatchObject({ name: 'shop', names: ['shop.example.com', '*.cdn.example.com'], status: 'valid', issuer: expect.stringContaining('CN=shop.example.com'), domains: [] });
    const days = (Date.parse(r.body.data.notAfter) - Date.parse(r.body.data.notBefore)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    const detail = await call(t, 'GET', `user/site/${f.a.site}/certificate/${r.body.data.id}`, { token: f.tokens.userA });
    expect(detail.body.data.certificate).toContain('BEGIN CERTIFICATE');
    expect(JSON.stringify(detail.body)).not.toContain('PRIVATE KEY');
    const stored = await t.deps.db.selectFrom('certificates').select('key_sealed').where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
    expect(stored.key_sealed).not.toContain('PRIVATE KEY');
  });

  it('refuses a key of another certificate, garbage, and names over 64 characters (301001)', async () => {
    const mismatch = await upload({ name: 'x', certificate: shop.chain, key: other.key });
    expect(mismatch.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'key' }] } });
    expect((await upload({ name: 'x', certificate: 'not a pem', key: shop.key })).body.extra.fields[0].field).toBe('certificate');
    expect((await upload({ name: 'x', certificate: shop.chain, key: 'nope' })).body.extra.fields[0].field).toBe('key');
    const long = await upload({ name: 'n'.repeat(65), certificate: shop.chain, key: shop.key });
    expect(long.body.code).toBe(301001);
    expect((await call(t, 'GET', `user/site/${f.a.site}/certificates`, { token: f.tokens.userA })).body.total).toBe(1);
  });

  it('serves a certificate only on domains it covers; the node gets chain and key', async () => {
    const [cert] = (await call(t, 'GET', `user/site/${f.a.site}/certificates`, { token: f.tokens.userA })).body.data;
    const bad = await call(t, 'PATCH', `user/site/${f.a.site}/certificate/domains`, { token: f.tokens.userA, body: { id: cert.id, domainIDs: [domainIds['www.example.com']] } });
    expect(bad.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'domainIDs' }] } });
    const ok = await call(t, 'PATCH', `user/site/${f.a.site}/certificate/domains`, {
      token: f.tokens.userA,
      body: { id: cert.id, domainIDs: [domainIds['shop.example.com'], domainIds['img.cdn.example.com']] },
    });
    expect(ok.body.data.domains.map((d: { name: string }) => d.name)).toEqual(['img.cdn.example.com', 'shop.example.com']);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.data.certificates).toEqual([{ id: cert.id, chain: expect.stringContaining('BEGIN CERTIFICATE'), key: shop.key }]);
    expect(state.structure.sites[0].domains.find((d) => d.name === 'shop.example.com')?.certificateId).toBe(cert.id);
    const inUse = await call(t, 'DELETE', `user/site/${f.a.site}/certificates`, { token: f.tokens.userA, body: { ids: [cert.id] } });
    expect(inUse.body).toMatchObject({ code: 101003, extra: { reason: 'in use' } });
    await call(t, 'PATCH', `user/site/${f.a.site}/certificate/domains`, { token: f.tokens.userA, body: { id: cert.id, domainIDs: [] } });
    expect((await call(t, 'DELETE', `user/site/${f.a.site}/certificates`, { token: f.tokens.userA, body: { ids: [cert.id] } })).status).toBe(200);
  });

  it("refuses every certificate call on another user's site", async () => {
    const mine = (await upload({ name: 'mine', certificate: other.chain, key: other.key })).body.data;
    const missing = await call(t, 'GET', 'user/site/999999/certificates', { token: f.tokens.userB });
    for (const r of [
      await call(t, 'GET', `user/site/${f.a.site}/certificates`, { token: f.tokens.userB }),
      await call(t, 'GET', `user/site/${f.a.site}/certificate/${mine.id}`, { token: f.tokens.userB }),
      await upload({ name: 'x', certificate: other.chain, key: other.key }, f.tokens.userB),
      await call(t, 'PUT', `user/site/${f.a.site}/certificate`, { token: f.tokens.userB, body: { id: mine.id, name: 'x' } }),
      await call(t, 'DELETE', `user/site/${f.a.site}/certificates`, { token: f.tokens.userB, body: { ids: [mine.id] } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'GET', `user/site/${f.b.site}/certificate/${mine.id}`, { token: f.tokens.userB })).status).toBe(404);
  });
});
