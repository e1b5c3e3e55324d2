import { z } from 'zod';
import * as s from '../schemas/monitors';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const tag = 'Monitors';
const view = 'monitors.view';
const edit = 'monitors.edit';

/** Monitor groups (spec §7): named sets of monitors. */
export const monitorGroupRoutes = {
  list: defineRoute({ id: 'client.monitor.groups', method: 'GET', path: 'client/monitor/groups', tier, permission: view, tag,
    summary: 'Monitor groups with their monitors', query: s.monitorsQuery, response: paged(s.monitorGroupItem) }),
  meta: defineRoute({ id: 'client.monitor.metaGroups', method: 'GET', path: 'client/monitor/metaGroups', tier, permission: view, tag,
    summary: 'Every monitor group, for pickers', response: envelope(z.array(z.object({ id: z.number(), name: z.string() }))) }),
  create: defineRoute({ id: 'client.monitor.group.create', method: 'POST', path: 'client/monitor/group', tier, permission: edit, tag,
    summary: 'Create a monitor group', body: s.createMonitorGroupBody, response: envelope(s.monitorGroupItem) }),
  update: defineRoute({ id: 'client.monitor.group.update', method: 'PUT', path: 'client/monitor/group', tier, permission: edit, tag,
    summary: 'Rename a monitor group or change its memo', body: s.updateMonitorGroupBody, response: envelope(s.monitorGroupItem) }),
  remove: defineRoute({ id: 'client.monitor.groups.remove', method: 'DELETE', path: 'client/monitor/groups', tier, permission: edit, tag,
    summary: 'Remove monitor groups (the monitors stay)', body: s.monitorIdsBody, response: done }),
  members: defineRoute({ id: 'client.monitor.group.nodes', method: 'GET', path: 'client/monitor/group/{groupID}/nodes', tier, permission: view, tag,
    summary: "The group's monitors", params: s.monitorGroupParams, query: s.monitorsQuery, response: paged(s.monitorItem) }),
  addMembers: defineRoute({ id: 'client.monitor.group.nodes.add', method: 'POST', path: 'client/monitor/group/{groupID}/nodes', tier, permission: edit, tag,
    summary: 'Add monitors to the group', params: s.monitorGroupParams, body: s.groupMonitorsBody, response: done }),
  removeMembers: defineRoute({ id: 'client.monitor.group.nodes.remove', method: 'DELETE', path: 'client/monitor/group/{groupID}/nodes', tier, permission: edit, tag,
    summary: 'Take monitors out of the group', params: s.monitorGroupParams, body: s.groupMonitorsBody, response: done }),
} as const;
