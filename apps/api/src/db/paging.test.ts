import { pageQuery } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeAccount, lane, startTestApp, type TestApp } from '../../test/harness';
import { paginate } from './paging';

lane('paging', () => {
  let t: TestApp;
  const list = (query: Record<string, unknown>) =>
    paginate(t.deps.db.selectFrom('accounts').select(['id', 'email', 'name']).where('auth', '=', 'user'), {
      page: pageQuery.parse(query),
      sortable: { email: 'email', createdAt: 'created_at' },
      defaultSort: { column: 'created_at', order: 'desc' },
    });

  beforeAll(async () => {
    t = await startTestApp();
    for (let i = 0; i < 23; i++) await makeAccount(t, { auth: 'user', email: `u${String(i).padStart(2, '0')}@example.com`, password: undefined });
    await makeAccount(t, { auth: 'client', email: 'not-a-user@example.com', password: undefined });
  });
  afterAll(() => t.close());

  it('answers page 1 of 10 by default, with the total of the whole filtered list', async () => {
    const first = await list({});
    expect(first.total).toBe(23);
    expect(first.data).toHaveLength(10);
  });

  it('walks pages without overlap or gaps, sorted as asked', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) seen.push(...(await list({ page, pageSize: 10, sortBy: 'email', orderBy: 'ascend' })).data.map((r) => r.email));
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(23);
    const desc = await list({ pageSize: 3, sortBy: 'email', orderBy: 'desc' });
    expect(desc.data.map((r) => r.email)).toEqual(['u22@example.com', 'u21@example.com', 'u20@example.com']);
  });

  it('answers an empty page past the end', async () => {
    expect(await list({ page: 9 })).toEqual({ data: [], total: 23 });
  });

  it('refuses page sizes over 500, pages under 1 and unknown sort columns', async () => {
    expect(pageQuery.safeParse({ pageSize: 501 }).success).toBe(false);
    expect(pageQuery.safeParse({ page: 0 }).success).toBe(false);
    expect(pageQuery.parse({ pageSize: '500' }).pageSize).toBe(500);
    await expect(list({ sortBy: 'password_hash' })).rejects.toMatchObject({ code: 101003 });
  });
});
