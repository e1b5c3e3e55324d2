import { z } from 'zod';
import * as s from '../schemas/basic-auth';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Basic auth';
const view = 'sites.view';
const edit = 'sites.edit';
const base = 'user/site/{siteId}/auth';

/** Basic auth of a site: groups of users, and rules binding URL patterns to groups (401 at the edge without valid credentials). */
export const basicAuthRoutes = {
  settingExists: defineRoute({ id: 'user.site.auth.settingExists', method: 'GET', path: `${base}/settingExists`, tier, permission: view, tag,
    summary: 'Whether the site has basic-auth rules', params: s.siteParams, response: envelope(s.settingExists) }),
  metaGroups: defineRoute({ id: 'user.site.auth.metaGroups', method: 'GET', path: `${base}/metaGroups`, tier, permission: view, tag,
    summary: 'Every group of a type, for pickers', params: s.siteParams, query: s.metaGroupsQuery, response: envelope(z.array(z.object({ id: z.number(), name: z.string() }))) }),
  rules: defineRoute({ id: 'user.site.auth.rules', method: 'GET', path: `${base}/rules`, tier, permission: view, tag,
    summary: 'The basic-auth rules, in the order the edge tries them', params: s.siteParams, query: s.rulesQuery, response: paged(s.ruleItem) }),
  createRule: defineRoute({ id: 'user.site.auth.rule.create', method: 'POST', path: `${base}/rule`, tier, permission: edit, tag,
    summary: 'Protect a path prefix or regex with the users of groups', params: s.siteParams, body: s.ruleBody, response: envelope(s.ruleItem) }),
  updateRule: defineRoute({ id: 'user.site.auth.rule.update', method: 'PUT', path: `${base}/rule`, tier, permission: edit, tag,
    summary: 'Change a basic-auth rule', params: s.siteParams, body: s.updateRuleBody, response: envelope(s.ruleItem) }),
  removeRules: defineRoute({ id: 'user.site.auth.rules.remove', method: 'DELETE', path: `${base}/rules`, tier, permission: edit, tag,
    summary: 'Remove basic-auth rules', params: s.siteParams, body: s.idsBody, response: done }),
  groups: defineRoute({ id: 'user.site.auth.groups', method: 'GET', path: `${base}/groups`, tier, permission: view, tag,
    summary: 'The basic-auth groups', params: s.siteParams, query: s.groupsQuery, response: paged(s.groupItem) }),
  createGroup: defineRoute({ id: 'user.site.auth.group.create', method: 'POST', path: `${base}/group`, tier, permission: edit, tag,
    summary: 'Create a group', params: s.siteParams, body: s.groupBody, response: envelope(s.groupItem) }),
  updateGroup: defineRoute({ id: 'user.site.auth.group.update', method: 'PUT', path: `${base}/group`, tier, permission: edit, tag,
    summary: 'Rename a group', params: s.siteParams, body: s.updateGroupBody, response: envelope(s.groupItem) }),
  removeGroups: defineRoute({ id: 'user.site.auth.groups.remove', method: 'DELETE', path: `${base}/groups`, tier, permission: edit, tag,
    summary: 'Remove groups no rule uses', params: s.siteParams, body: s.idsBody, response: done }),
  users: defineRoute({ id: 'user.site.auth.group.basicAuths', method: 'GET', path: `${base}/group/{groupId}/basicAuths`, tier, permission: view, tag,
    summary: 'The users of a group (never their passwords)', params: s.groupParams, response: envelope(z.array(s.userItem)) }),
  createUser: defineRoute({ id: 'user.site.auth.group.basicAuth.create', method: 'POST', path: `${base}/group/{groupId}/basicAuth`, tier, permission: edit, tag,
    summary: 'Add a user with a password (kept only as a salted hash)', params: s.groupParams, body: s.userBody, response: envelope(s.userItem) }),
  updateUser: defineRoute({ id: 'user.site.auth.group.basicAuth.update', method: 'PUT', path: `${base}/group/{groupId}/basicAuth`, tier, permission: edit, tag,
    summary: 'Rename a user or set a new password', params: s.groupParams, body: s.updateUserBody, response: envelope(s.userItem) }),
  removeUsers: defineRoute({ id: 'user.site.auth.group.basicAuths.remove', method: 'DELETE', path: `${base}/group/{groupId}/basicAuths`, tier, permission: edit, tag,
    summary: 'Remove users', params: s.groupParams, body: s.idsBody, response: done }),
} as const;
