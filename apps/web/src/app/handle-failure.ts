import i18next from 'i18next';
import { createElement } from 'react';
import type { Tier } from '@edgekeep/contract/tiers';
import { describeFailure } from '../api/describe-failure';
import type { SelfInfo } from '../api/types';
import { currentLanguage } from '../i18n';
import { showModal, toast } from './feedback';
import { queryClient } from './query-client';
import { endSession } from './session';

const selfOf = (tier: Tier | undefined) => (tier ? queryClient.getQueryData<SelfInfo>(['self', tier]) : undefined);

export function handleFailure(err: unknown, overrideCode?: number) {
  const tier = (err as { tier?: Tier }).tier;
  const action = describeFailure(err, {
    lang: currentLanguage(),
    t: (key) => i18next.t(key),
    maxLogExportTimes: selfOf(tier)?.maxLogExportTimes,
    overrideCode,
  });
  if (action.kind === 'silent') return;
  if (action.kind === 'toast') return toast.error(action.text);
  if (action.kind === 'endSession') return endSession(tier!, action.text);
  const list = action.items.map((item, i) =>
    createElement('li', { key: i }, item.targets.length ? `${item.text}: ${item.targets.join(', ')}` : item.text),
  );
  showModal({ title: action.title, content: createElement('ul', null, list), okText: i18next.t('common.confirm') });
}
