import i18next from 'i18next';
import { describeFailure } from '../api/describe-failure';
import { ApiFailure } from '../api/failure';
import type { SelfInfo } from '../api/types';
import { currentLanguage } from '../i18n';
import { showModal, toast } from './feedback';
import { queryClient } from './query-client';
import { endSession } from './session';
import { selfQueryKey } from './use-self';

/** Shows a failed call the way spec §8 says: a toast, the 'multiple error' modal, or the end of the session. */
export function handleFailure(err: unknown, overrideCode?: number) {
  const tier = err instanceof ApiFailure ? err.tier : undefined;
  const self = tier ? queryClient.getQueryData<SelfInfo>(selfQueryKey(tier)) : undefined;
  const action = describeFailure(err, {
    lang: currentLanguage(),
    t: (key) => i18next.t(key),
    maxLogExportTimes: self?.maxLogExportTimes,
    overrideCode,
  });
  if (action.kind === 'silent') return;
  if (action.kind === 'toast') return toast.error(action.text);
  if (action.kind === 'endSession' && tier) return endSession(tier, action.text);
  if (action.kind !== 'modal') return;
  const content = (
    <ul>
      {action.items.map((item, i) => (
        <li key={i}>{item.targets.length ? `${item.text}: ${item.targets.join(', ')}` : item.text}</li>
      ))}
    </ul>
  );
  showModal({ title: action.title, content, okText: i18next.t('common.confirm') });
}
