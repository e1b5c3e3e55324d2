import { z } from 'zod';
import * as s from '../schemas/licenses';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tag = 'Licenses';

/**
 * Spec §7 "Admin license calls" (their paths carry no admin/ prefix), the client's offline activation, and two
 * client calls the spec does not name: the client's own license with its usage, and its registration request; and
 * two admin calls for the dashboard: the counts, and one client's usage.
 */
export const licenseRoutes = {
  list: defineRoute({ id: 'licenses', method: 'GET', path: 'license', tier: 'admin', permission: 'licenses.view', tag,
    summary: 'Online licenses (filters name, clientID)', query: s.licensesQuery, response: paged(s.licenseItem) }),
  create: defineRoute({ id: 'license.create', method: 'POST', path: 'license', tier: 'admin', permission: 'licenses.edit', tag,
    summary: 'Create an online license; it gets its key when issued to a client', body: s.createLicenseBody, response: envelope(s.licenseItem) }),
  update: defineRoute({ id: 'license.update', method: 'PUT', path: 'license', tier: 'admin', permission: 'licenses.edit', tag,
    summary: 'Edit an online license; an issued one is signed again and its client holds the new key at once',
    body: s.updateLicenseBody, response: envelope(s.licenseItem) }),
  remove: defineRoute({ id: 'license.remove', method: 'DELETE', path: 'license', tier: 'admin', permission: 'licenses.edit', tag,
    summary: 'Remove online licenses; their clients are left without a license', body: s.removeLicensesBody, response: done }),
  issue: defineRoute({ id: 'license.issue', method: 'POST', path: 'license/issuing', tier: 'admin', permission: 'licenses.edit', tag,
    summary: "Issue an online license to a client: signs its key and replaces the client's active license",
    body: s.issueLicenseBody, response: envelope(s.licenseItem) }),
  orders: defineRoute({ id: 'license.orders', method: 'GET', path: 'license/{userId}/order', tier: 'admin', permission: 'licenses.view', tag,
    summary: "A client's order records, newest first", params: s.orderParams, response: envelope(z.array(s.orderItem)) }),
  setOrders: defineRoute({ id: 'license.orders.set', method: 'PUT', path: 'license/{userId}/order', tier: 'admin', permission: 'licenses.edit', tag,
    summary: "Replace a client's order records", params: s.orderParams, body: s.ordersBody, response: envelope(z.array(s.orderItem)) }),
  overview: defineRoute({ id: 'license.overview', method: 'GET', path: 'license/overview', tier: 'admin', permission: 'licenses.view', tag,
    summary: 'Counts for the admin dashboard: root clients, licenses, those issued, issued ones expiring within 30 days',
    response: envelope(s.licenseOverview) }),
  usage: defineRoute({ id: 'license.usage', method: 'GET', path: 'license/{userId}/usage', tier: 'admin', permission: 'licenses.view', tag,
    summary: "A client's license with its usage against each limit, as its system screen shows it", params: s.orderParams,
    response: envelope(s.clientLicense) }),
  offlines: defineRoute({ id: 'license.offlines', method: 'GET', path: 'license/offlines', tier: 'admin', permission: 'licenses.view', tag,
    summary: 'Offline licenses (filters name, clientID)', query: s.licensesQuery, response: paged(s.licenseItem) }),
  updateOffline: defineRoute({ id: 'license.offline.update', method: 'PUT', path: 'license/offline', tier: 'admin', permission: 'licenses.edit', tag,
    summary: 'Edit an offline license; a registered one gets a new key, which the client installs with updateKey',
    body: s.updateLicenseBody, response: envelope(s.licenseItem) }),
  removeOffline: defineRoute({ id: 'license.offline.remove', method: 'DELETE', path: 'license/offline', tier: 'admin', permission: 'licenses.edit', tag,
    summary: 'Remove offline licenses; a client that activated one is left without a license', body: s.removeLicensesBody, response: done }),
  issueOffline: defineRoute({ id: 'license.offline.issue', method: 'POST', path: 'license/offline/issuing', tier: 'admin', permission: 'licenses.edit', tag,
    summary: "Turn a client's registration request file into an offline license and its key", body: s.offlineIssueBody,
    response: envelope(s.licenseItem) }),
  unregister: defineRoute({ id: 'license.offline.unregister', method: 'DELETE', path: 'license/offline/register', tier: 'admin',
    permission: 'licenses.edit', tag,
    summary: 'Release the registration of offline licenses: their keys stop working and the client registers again',
    body: s.removeLicensesBody, response: done }),
  activate: defineRoute({ id: 'offline.license.activate', method: 'PUT', path: 'offline/license', tier: 'client', permission: 'system.edit', tag,
    summary: "Activate an offline license key (a key file's text) answering this installation's registration request",
    body: s.activateBody, response: envelope(s.clientLicense) }),
  updateKey: defineRoute({ id: 'offline.license.updateKey', method: 'PUT', path: 'offline/license/updateKey', tier: 'client',
    permission: 'system.edit', tag, summary: 'Install a renewed key of the active offline license', query: s.updateKeyQuery,
    response: envelope(s.clientLicense) }),
  mine: defineRoute({ id: 'client.license', method: 'GET', path: 'client/license', tier: 'client', permission: 'system.view', tag,
    summary: "The client's license: its terms, usage against each limit and expiry", response: envelope(s.clientLicense) }),
  register: defineRoute({ id: 'client.license.registration', method: 'POST', path: 'client/license/registration', tier: 'client',
    permission: 'system.edit', tag, summary: "This installation's registration request file for an offline license (a new nonce each time)",
    response: envelope(s.registrationRequest) }),
} as const;
