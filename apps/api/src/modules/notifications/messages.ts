import type { notificationSchemas as n } from '@edgekeep/contract';

type Payload = { subject: string; details: Record<string, string | number> };

const TITLES: Record<n.NotifyEvent, string> = {
  'node.offline': 'Node offline',
  'node.online': 'Node back online',
  'monitor.failure': 'Monitor failure',
  'certificate.expiring': 'Certificate expiring',
  'certificate.failed': 'Certificate failed',
  'traffic.warning': 'Traffic warning',
  'traffic.limited': 'Traffic limited',
  'login.newAddress': 'Sign-in from a new address',
};

const LEADS: Record<n.NotifyEvent, (subject: string) => string> = {
  'node.offline': (s) => `Node ${s} stopped reporting and is offline.`,
  'node.online': (s) => `Node ${s} reports again and is online.`,
  'monitor.failure': (s) => `A monitor of node ${s} failed.`,
  'certificate.expiring': (s) => `Certificate ${s} expires soon.`,
  'certificate.failed': (s) => `Certificate ${s} could not be issued or renewed.`,
  'traffic.warning': (s) => `Site ${s} used most of its traffic allowance this month.`,
  'traffic.limited': (s) => `Site ${s} used up its traffic allowance and is limited.`,
  'login.newAddress': (s) => `Your account ${s} signed in from an address it has not used before.`,
};

/** The notice's subject line and text, the same for mail and chat. */
export function render(kind: n.NotifyEvent, p: Payload) {
  const details = Object.entries(p.details).map(([k, v]) => `${k}: ${v}`);
  return { title: `EdgeKeep: ${TITLES[kind]}`, text: [LEADS[kind](p.subject), ...details].join('\n') };
}
