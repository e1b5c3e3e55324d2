import type { MutationFunction } from '@tanstack/react-query';
import type { Messages } from '../../i18n/en-us';
import { useSiteMutation } from '../sites/use-site-mutation';
import { firewallKeys, type IpList, type RuleKind } from './queries';

/** A change to one of the site's firewall lists: refreshes that list and the counts at the top of the screen. */
export function useFirewallMutation<V, R>(opts: { siteId: number; list: IpList | RuleKind; fn: MutationFunction<R, V>; success: keyof Messages['siteMessages']; done?: (r: R) => void }) {
  return useSiteMutation({
    fn: opts.fn,
    success: opts.success,
    refresh: [firewallKeys.list(opts.siteId, opts.list), firewallKeys.settings(opts.siteId)],
    done: opts.done,
  });
}
