import type { wafAclSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { ListQuery } from '../../components/list-params';

export type AnticcRule = z.infer<typeof wafAclSchemas.anticcItem>;
export type AnticcInput = z.input<typeof wafAclSchemas.anticcInput>;
export type AnticcFreqs = z.infer<typeof wafAclSchemas.freqsItem>;

const tier = 'user' as const;
const fw = (siteId: number, rest: string) => `user/site/${siteId}/firewall/setting/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** The anti-CC calls of spec §7 (firewall/setting/anticc, anticcs, anticc/freqs). */
export const anticcApi = {
  list: (siteId: number, query: ListQuery) => callList<AnticcRule>(fw(siteId, 'anticcs'), { tier, query }),
  create: (siteId: number, body: AnticcInput) => send<AnticcRule>('POST', fw(siteId, 'anticc'), body),
  update: (siteId: number, body: Partial<AnticcInput> & { id: number }) => send<AnticcRule>('PUT', fw(siteId, 'anticc'), body),
  enable: (siteId: number, ids: number[], enabled: boolean) => send<unknown>('PUT', fw(siteId, 'anticcs/enable'), { ids, enabled }),
  remove: (siteId: number, ids: number[]) => send<unknown>('DELETE', fw(siteId, 'anticcs'), { ids }),
  freqs: (siteId: number) => call<AnticcFreqs>(fw(siteId, 'anticc/freqs'), { tier }),
};

export const anticcKeys = { list: (siteId: number) => ['anticcs', siteId], freqs: (siteId: number) => ['anticc-freqs', siteId] };
/** Spec §4 protection modes. */
export const MODES = { 1: 'shield', 2: 'code', 3: 'click', 4: 'redirect', 5: 'slider' } as const;
