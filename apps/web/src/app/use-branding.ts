import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEFAULT_BRANDING } from '@edgekeep/contract/constants';
import type { Tier } from '@edgekeep/contract/tiers';
import { accountCalls } from '../api/account';
import { readTokens } from '../api/cookies';
import type { Branding } from '../api/types';

/** The screen the console shows; the browser tab reads "screen · title" (see useScreenName). */
let screenName: string | undefined;
const tabTitle = (title: string) => (screenName ? `${screenName} · ${title}` : title);

/** Names the open screen in the browser tab until the next one does or the console closes. */
export function useScreenName(name: string | undefined, title: string) {
  useEffect(() => {
    screenName = name;
    document.title = tabTitle(title);
    return () => {
      screenName = undefined;
      document.title = title;
    };
  }, [name, title]);
}

/** The area's branding; the default title and copyright wherever none comes back. */
export function useBranding(tier: Tier): Branding {
  const signedIn = readTokens(tier) !== undefined;
  const { data } = useQuery({ queryKey: ['branding', tier, signedIn], queryFn: async () => (await accountCalls()).branding(tier, signedIn), staleTime: Infinity });
  const branding = { ...data, title: data?.title || DEFAULT_BRANDING.title, copyright: data?.copyright || DEFAULT_BRANDING.copyright };
  useEffect(() => {
    document.title = tabTitle(branding.title);
    if (!branding.favicon) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = branding.favicon;
  }, [branding.title, branding.favicon]);
  return branding;
}
