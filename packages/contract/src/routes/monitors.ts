import { z } from 'zod';
import * as s from '../schemas/monitors';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const tag = 'Monitors';
const view = 'monitors.view';
const edit = 'monitors.edit';

/** Monitor nodes (spec §7 Monitor calls): probes the API runs against the client's nodes. */
export const monitorRoutes = {
  init: defineRoute({ id: 'client.monitor.nodes.init', method: 'POST', path: 'client/monitor/nodes', tier, permission: edit, tag,
    summary: 'Start monitoring nodes with the default probe (HTTP status 200 on {host}/ every 60 s)', body: s.initMonitorsBody, response: done }),
  list: defineRoute({ id: 'client.monitor.nodes', method: 'GET', path: 'client/monitor/nodes', tier, permission: view, tag,
    summary: 'Monitors with their last probe result', query: s.monitorsQuery, response: paged(s.monitorItem) }),
  update: defineRoute({ id: 'client.monitor.node.update', method: 'PUT', path: 'client/monitor/node', tier, permission: edit, tag,
    summary: "Change a monitor's probe, interval and failure action", body: s.updateMonitorBody, response: envelope(s.monitorItem) }),
  remove: defineRoute({ id: 'client.monitor.nodes.remove', method: 'DELETE', path: 'client/monitor/nodes', tier, permission: edit, tag,
    summary: 'Stop monitoring nodes', body: s.monitorIdsBody, response: done }),
  meta: defineRoute({ id: 'client.monitor.metaMonitors', method: 'GET', path: 'client/monitor/metaMonitors', tier, permission: view, tag,
    summary: 'Every monitor, for pickers', response: envelope(z.array(z.object({ id: z.number(), name: z.string() }))) }),
  enable: defineRoute({ id: 'client.monitor.nodes.enableStatus', method: 'PUT', path: 'client/monitor/nodes/enableStatus', tier, permission: edit, tag,
    summary: 'Turn monitors on or off', body: s.enableMonitorsBody, response: done }),
  notInit: defineRoute({ id: 'client.monitor.nodes.notInit', method: 'GET', path: 'client/monitor/nodes/notInit', tier, permission: view, tag,
    summary: 'Ordinary nodes without a monitor yet', query: s.monitorsQuery, response: paged(s.notInitItem) }),
} as const;
