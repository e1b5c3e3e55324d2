import type { z } from 'zod';
import * as n from '../schemas/network';
import { envelope } from '../paging';
import { defineRoute } from '../route';

type AnalyticsTier = 'user' | 'client';
const tag = 'Network statistics';

/** Spec §7: POST {tier}/statistics/network/outcomes/…, the layer-4 attack analysis' calls. */
const network = (tier: AnalyticsTier, scope: string) => {
  const call = <R extends z.ZodType>(name: string, id: string, summary: string, response: R) =>
    defineRoute({
      id: `${tier}.network.${id}`, method: 'POST', path: `${tier}/statistics/network/outcomes/${name}`, tier, permission: 'statistics.view', readOnly: true, tag,
      summary: `${summary}, of ${scope}'s L4 ports`, body: n.networkFilter, response: envelope(response),
    });
  return {
    avgBitRate: call('avgBitRate', 'avgBitRate', 'Average bits per second per bucket, passed and dropped', n.avgBitRate),
    sumBits: call('sumBits', 'sumBits', 'Bits passed, dropped and in total over the window (bytes × 8)', n.sumBits),
    countryTops: call('countries/tops', 'countries.tops', 'The data-centre countries (coloCountry) that carried the most bits', n.tops),
    countryBitRate: call('countries/avgBitRate', 'countries.avgBitRate', 'Average bits per second per data-centre country of `countries`', n.keyedBitRate),
    ipTops: call('ips/tops', 'ips.tops', 'The source addresses (ipSourceAddress) that sent or got the most bits', n.tops),
    ipBitRate: call('ips/avgBitRate', 'ips.avgBitRate', 'Average bits per second per source address of `ips`', n.keyedBitRate),
    asnTops: call('asns/tops', 'asns.tops', 'The source ASNs (sourceAsn) with the most bits', n.tops),
    asnBitRate: call('asns/avgBitRate', 'asns.avgBitRate', 'Average bits per second per ASN of `asns`', n.keyedBitRate),
    tcpFlagTops: call('tcpFlags/tops', 'tcpFlags.tops', 'TCP flags by bits: not measured by the stream servers (measured false, noData true)', n.tops),
    tcpFlagBitRate: call('tcpFlags/avgBitRate', 'tcpFlags.avgBitRate', 'Average bits per second per TCP flag: not measured (measured false, no series)', n.keyedBitRate),
    protocolBits: call('ipProtocols/bits', 'ipProtocols.bits', 'Bits per IP protocol (TCP, UDP measured; ICMP, GRE null)', n.protocolBits),
    protocolBitRate: call('ipProtocols/avgBitRate', 'ipProtocols.avgBitRate', 'Average bits per second per measured IP protocol', n.keyedBitRate),
  };
};

export const networkRoutes = {
  user: network('user', "the user's sites"),
  client: network('client', "the client's users' sites"),
};
