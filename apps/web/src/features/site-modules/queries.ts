import { useQuery } from '@tanstack/react-query';
import { basicAuthRoutes as auth } from '@edgekeep/contract/routes/basic-auth';
import { siteModuleRoutes as m } from '@edgekeep/contract/routes/site-modules';
import type { groupItem, ruleBody, ruleItem, rulesQuery, groupsQuery } from '@edgekeep/contract/schemas/basic-auth';
import type { antiHeaderBody, antiHeaderItem, refererBody, refererItem } from '@edgekeep/contract/schemas/site-modules';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type AuthGroup = z.output<typeof groupItem>;
export type AuthRule = z.output<typeof ruleItem>;
export type AuthRuleInput = z.input<typeof ruleBody>;
export type RefererItem = z.output<typeof refererItem>;
export type RefererInput = z.input<typeof refererBody>;
export type AntiHeaderItem = z.output<typeof antiHeaderItem>;
export type AntiHeaderInput = z.input<typeof antiHeaderBody>;

export const siteModuleKeys = {
  authGroups: (siteId: number) => ['site', siteId, 'auth', 'groups'] as const,
  authMetaGroups: (siteId: number) => ['site', siteId, 'auth', 'groups', 'meta'] as const,
  authUsers: (siteId: number, groupId: number) => ['site', siteId, 'auth', 'groups', groupId, 'users'] as const,
  authRules: (siteId: number) => ['site', siteId, 'auth', 'rules'] as const,
  referers: (siteId: number, domainId: number) => ['site', siteId, 'domain', domainId, 'antiReferers'] as const,
  antiHeaders: (siteId: number, domainId: number) => ['site', siteId, 'domain', domainId, 'antiHeaders'] as const,
};

/** Basic auth (spec §7 Auth): groups of users, and rules binding paths to groups. */
export const basicAuth = {
  groups: (siteId: number, query: ListQuery) => callRoute(auth.groups, { params: { siteId }, query: query as z.input<typeof groupsQuery> }),
  saveGroup: (siteId: number, name: string, id?: number) =>
    id ? callRoute(auth.updateGroup, { params: { siteId }, body: { id, name } }) : callRoute(auth.createGroup, { params: { siteId }, body: { name } }),
  removeGroups: (siteId: number, ids: number[]) => callRoute(auth.removeGroups, { params: { siteId }, body: { ids } }),
  addUser: (siteId: number, groupId: number, body: { user: string; password: string }) => callRoute(auth.createUser, { params: { siteId, groupId }, body }),
  removeUsers: (siteId: number, groupId: number, ids: number[]) => callRoute(auth.removeUsers, { params: { siteId, groupId }, body: { ids } }),
  rules: (siteId: number, query: ListQuery) => callRoute(auth.rules, { params: { siteId }, query: query as z.input<typeof rulesQuery> }),
  createRule: (siteId: number, body: AuthRuleInput) => callRoute(auth.createRule, { params: { siteId }, body }),
  removeRules: (siteId: number, ids: number[]) => callRoute(auth.removeRules, { params: { siteId }, body: { ids } }),
};

export const useAuthUsers = (siteId: number, groupId: number) =>
  useQuery({ queryKey: siteModuleKeys.authUsers(siteId, groupId), queryFn: async () => (await callRoute(auth.users, { params: { siteId, groupId } })).data });
export const useAuthMetaGroups = (siteId: number) =>
  useQuery({ queryKey: siteModuleKeys.authMetaGroups(siteId), queryFn: async () => (await callRoute(auth.metaGroups, { params: { siteId }, query: { type: 'basic' } })).data });

/** A domain's referer and header rules (spec §7 anti-referer, anti-header). */
export const accessRules = {
  /** Adds a referer rule to the domain, or changes the one whose id is given. */
  saveReferer: (siteId: number, domainId: number, body: RefererInput & { id?: number }) =>
    body.id
      ? callRoute(m.updateAntiReferer, { params: { siteId }, body: { ...body, id: body.id, domainId } })
      : callRoute(m.addAntiReferer, { params: { siteId, domainId }, body }),
  removeReferers: (siteId: number, domainId: number, ids: number[]) => callRoute(m.removeAntiReferers, { params: { siteId, domainId }, body: { ids } }),
  /** Adds a header rule to the domain, or changes the one whose id is given. */
  saveAntiHeader: (siteId: number, domainId: number, body: AntiHeaderInput & { id?: number }) =>
    body.id
      ? callRoute(m.updateAntiHeader, { params: { siteId }, body: { ...body, id: body.id, domainId } })
      : callRoute(m.addAntiHeader, { params: { siteId, domainId }, body }),
  removeAntiHeaders: (siteId: number, domainId: number, ids: number[]) => callRoute(m.removeAntiHeaders, { params: { siteId, domainId }, body: { ids } }),
};

export const useReferers = (siteId: number, domainId: number) =>
  useQuery({ queryKey: siteModuleKeys.referers(siteId, domainId), queryFn: async () => (await callRoute(m.antiReferers, { params: { siteId, domainId } })).data });
export const useAntiHeaders = (siteId: number, domainId: number) =>
  useQuery({ queryKey: siteModuleKeys.antiHeaders(siteId, domainId), queryFn: async () => (await callRoute(m.antiHeaders, { params: { siteId, domainId } })).data });
