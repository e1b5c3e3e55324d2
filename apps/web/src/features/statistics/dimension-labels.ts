import type { Dimension } from '@edgekeep/contract/schemas/statistics';
import type { ParseKeys } from 'i18next';

export const DIMENSION_KEYS: Record<Dimension, ParseKeys> = {
  site: 'statistics.dimension.site',
  domain: 'statistics.dimension.domain',
  node: 'statistics.dimension.node',
  status: 'statistics.dimension.status',
  cacheStatus: 'statistics.dimension.cacheStatus',
  country: 'statistics.dimension.country',
  region: 'statistics.dimension.region',
  province: 'statistics.dimension.province',
  city: 'statistics.dimension.city',
  isp: 'statistics.dimension.isp',
  protocol: 'statistics.dimension.protocol',
  method: 'statistics.dimension.method',
  httpVersion: 'statistics.dimension.httpVersion',
  ipVersion: 'statistics.dimension.ipVersion',
  refererHost: 'statistics.dimension.refererHost',
  url: 'statistics.dimension.url',
  clientIp: 'statistics.dimension.clientIp',
  uaFamily: 'statistics.dimension.uaFamily',
  blockCause: 'statistics.dimension.blockCause',
  blockRule: 'statistics.dimension.blockRule',
};
