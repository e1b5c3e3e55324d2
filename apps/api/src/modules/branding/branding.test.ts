import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, makeTenants, startTestApp, type TestApp } from '../../../test/harness';

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 1, 1]), PNG]);

async function formOf(parts: Record<string, string | { name: string; type: string; data: Buffer }>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === 'string') form.append(k, v);
    else form.append(k, new Blob([new Uint8Array(v.data)], { type: v.type }), v.name);
  }
  const req = new Request('http://local/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

lane('branding', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  const send = async (method: 'POST' | 'PUT' | 'DELETE', token: string, parts: Parameters<typeof formOf>[0]) => {
    const { payload, type } = await formOf(parts);
    const res = await t.app.inject({ method, url: '/api/v1/client/setting/logo', headers: { authorization: `Bearer ${token}`, 'content-type': type }, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const own = async (token = f.tokens.clientA) => (await call(t, 'GET', 'client/setting/logos', { token })).body.data;
  const publicOf = async (tier: string) => (await call(t, 'GET', `${tier}/logo`)).body.data;

  it('answers the default title and copyright, with l4AttackAnalysis, before any branding is set', async () => {
    for (const tier of ['admin', 'client', 'user']) {
      expect(await publicOf(tier)).toEqual({ title: 'EdgeKeep', copyright: 'Copyright © EdgeKeep. All rights reserved.', l4AttackAnalysis: false });
    }
    expect(await own()).toMatchObject({ title: null, copyright: null, logo: null, favicon: null, updatedAt: null });
  });

  it('takes title, copyright and images as form data and serves them to every area', async () => {
    const res = await send('POST', f.tokens.clientA, {
      title: ' Acme CDN ',
      copyright: '© Acme',
      logo: { name: 'logo.png', type: 'image/png', data: PNG },
      favicon: { name: 'favicon.ico', type: 'image/x-icon', data: ICO },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Acme CDN', copyright: '© Acme', backgroundImage: null });
    expect(res.body.data.logo).toMatch(new RegExp(`^/api/v1/branding/${f.clientA.id}/logo\\?v=[0-9a-f]{16}$`));
    for (const tier of ['admin', 'client', 'user']) {
      const shown = await publicOf(tier);
      expect(shown).toMatchObject({ title: 'Acme CDN', copyright: '© Acme', logo: res.body.data.logo, favicon: res.body.data.favicon, l4AttackAnalysis: false });
      expect(shown.sidebarLogo).toBeUndefined();
    }
    const image = await t.app.inject({ method: 'GET', url: res.body.data.logo });
    expect([image.statusCode, image.headers['content-type'], image.headers['x-content-type-options']]).toEqual([200, 'image/png', 'nosniff']);
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect(image.headers['cache-control']).toContain('immutable');
    const icon = await t.app.inject({ method: 'GET', url: res.body.data.favicon });
    expect(icon.headers['content-type']).toBe('image/x-icon');
  });

  it('replaces one part with PUT, keeps the others, and sets texts with POST logos', async () => {
    const before = await own();
    const other = Buffer.concat([PNG, Buffer.from([0])]);
    const res = await send('PUT', f.tokens.clientA, { sidebarLogo: { name: 's.png', type: 'image/png', data: other }, logo: { name: 'l.png', type: 'image/png', data: other } });
    expect(res.body.data).toMatchObject({ title: 'Acme CDN', favicon: before.favicon });
    expect(res.body.data.logo).not.toBe(before.logo);
    expect(res.body.data.sidebarLogo).toMatch(/sidebarLogo\?v=/);
    const texts = await call(t, 'POST', 'client/setting/logos', { token: f.tokens.clientA, body: { copyright: '© Acme 2026' } });
    expect(texts.body.data).toMatchObject({ title: 'Acme CDN', copyright: '© Acme 2026' });
  });

  it('refuses a file of another type, a file too large, or an empty title with 101003, and stores nothing', async () => {
    const before = await own();
    const cases: Parameters<typeof formOf>[0][] = [
      { logo: { name: 'logo.png', type: 'image/png', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') } },
      { favicon: { name: 'f.ico', type: 'image/x-icon', data: Buffer.concat([PNG, Buffer.alloc(256 * 1024)]) } },
      { title: 'ok', logo: { name: 'x.gif', type: 'image/gif', data: Buffer.alloc(0) } },
      { title: '   ' },
      { title: 'x'.repeat(65) },
      { logo: 'not a file' },
    ];
    for (const parts of cases) {
      const res = await send('POST', f.tokens.clientA, parts);
      expect([res.status, res.body.code], JSON.stringify(Object.keys(parts))).toEqual([400, 101003]);
    }
    const huge = await send('POST', f.tokens.clientA, { backgroundImage: { name: 'bg.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(7 * 1024 * 1024)]) } });
    expect(huge.body.code).toBe(101003);
    expect(await own()).toEqual(before);
  });

  it('sets fields back to the default with DELETE', async () => {
    const res = await send('DELETE', f.tokens.clientA, { fields: 'sidebarLogo' });
    expect(res.body.data.sidebarLogo).toBeNull();
    const json = await call(t, 'DELETE', 'client/setting/logo', { token: f.tokens.clientA, body: { fields: ['title', 'favicon'] } });
    expect(json.body.data).toMatchObject({ title: null, favicon: null, copyright: '© Acme 2026' });
    expect(await publicOf('user')).toMatchObject({ title: 'EdgeKeep', copyright: '© Acme 2026' });
    const bad = await call(t, 'DELETE', 'client/setting/logo', { token: f.tokens.clientA, body: { fields: ['colour'] } });
    expect(bad.body.code).toBe(101003);
  });

  it("keeps each client's branding its own, and refuses users", async () => {
    expect(await own(f.tokens.clientB)).toMatchObject({ title: null, copyright: null, logo: null });
    await send('POST', f.tokens.clientB, { title: 'Other' });
    expect((await own()).title).toBeNull();
    // The first client's branding stays the platform's sign-in branding; a signed-in shell shows its own tenant's.
    expect((await publicOf('client')).copyright).toBe('© Acme 2026');
    const shell = async (tier: string, token: string) => (await call(t, 'GET', `${tier}/logo`, { token })).body.data;
    expect(await shell('client', f.tokens.clientB)).toMatchObject({ title: 'Other', copyright: 'Copyright © EdgeKeep. All rights reserved.' });
    expect((await shell('user', f.tokens.userB)).title).toBe('Other');
    expect((await shell('user', f.tokens.userA)).copyright).toBe('© Acme 2026');
    expect((await shell('user', 'not-a-token')).copyright).toBe('© Acme 2026');
    expect((await shell('client', f.tokens.userB)).copyright).toBe('© Acme 2026');
    for (const [method, path] of [['GET', 'client/setting/logos'], ['POST', 'client/setting/logos'], ['DELETE', 'client/setting/logo']] as const) {
      expect((await call(t, method, path, { token: f.tokens.userA, body: method === 'GET' ? undefined : { title: 'x' } })).status).toBe(401);
    }
    expect((await send('POST', f.tokens.userA, { title: 'x' })).status).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/branding/${f.clientB.id}/logo` })).statusCode).toBe(404);
  });
});
