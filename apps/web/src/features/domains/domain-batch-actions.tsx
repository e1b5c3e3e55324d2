import { Button, Dropdown, Popconfirm, Space, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { BALANCES } from '@edgekeep/contract/schemas/domains';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteMutation } from '../sites/use-site-mutation';
import { CopyToSiteModal } from './copy-to-site-modal';
import { saveText } from '../../lib/save-text';
import { DomainTagsModal } from './domain-tags-modal';
import { ReplaceOriginModal } from './replace-origin-modal';
import { SetOriginsModal } from './set-origins-modal';
import { useDomainAction } from './use-domain-action';
import { siteCalls, siteKeys } from '../sites/queries';
import { domainCalls } from './queries';

/** The label of each load-balancing method of the contract (a method added there must get one here). */
export const BALANCE_LABELS = {
  round_robin: 'domainSettings.balanceOf.round_robin',
  ip_hash: 'domainSettings.balanceOf.ip_hash',
  least_conn: 'domainSettings.balanceOf.least_conn',
} as const satisfies Record<(typeof BALANCES)[number], string>;

type Props = { siteId: number; ids: number[]; clear: () => void };

/** What can be done to the chosen domains at once; removal asks first. */
export function DomainBatchActions({ siteId, ids, clear }: Props) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'tags' | 'copy' | 'origins' | 'replace'>();
  const refresh = [siteKeys.domains(siteId)];
  const change = useSiteMutation({ fn: (run: () => Promise<unknown>) => run(), success: 'updateSuccess', refresh, done: clear });
  const remove = useSiteMutation({ fn: () => siteCalls.removeDomains(siteId, ids), success: 'removeSuccess', refresh: [...refresh, siteKeys.sites], done: clear });
  const checked = useDomainAction({ fn: () => domainCalls.checkCname(siteId, ids), success: 'detectionSuccess', refresh });
  const exported = useDomainAction({
    fn: () => domainCalls.exportText(siteId, ids),
    success: 'exportSuccess',
    refresh: [],
    done: (text) => saveText(`domains-site-${siteId}.txt`, text),
  });
  const run = (fn: () => Promise<unknown>) => change.mutate(fn);
  const items: MenuProps['items'] = [
    { key: 'enable', label: t('domainSettings.enable'), onClick: () => run(() => domainCalls.setStatus(siteId, ids, 1)) },
    { key: 'disable', label: t('domainSettings.disable'), onClick: () => run(() => domainCalls.setStatus(siteId, ids, 0)) },
    { key: 'forceOn', label: t('domainSettings.forceSslOn'), onClick: () => run(() => domainCalls.setForceSSL(siteId, ids, true)) },
    { key: 'forceOff', label: t('domainSettings.forceSslOff'), onClick: () => run(() => domainCalls.setForceSSL(siteId, ids, false)) },
    { key: 'autoOn', label: t('domainSettings.autoSslOn'), onClick: () => run(() => domainCalls.setAutoSSL(siteId, ids, true)) },
    { key: 'autoOff', label: t('domainSettings.autoSslOff'), onClick: () => run(() => domainCalls.setAutoSSL(siteId, ids, false)) },
    {
      key: 'balance',
      label: t('domainSettings.balance'),
      children: BALANCES.map((b) => ({ key: `balance-${b}`, label: t(BALANCE_LABELS[b]), onClick: () => run(() => domainCalls.setBalance(siteId, ids, b)) })),
    },
    { key: 'origins', label: t('domainSettings.setOrigins'), onClick: () => setDialog('origins') },
    { key: 'replace', label: t('domainSettings.replaceOrigin'), onClick: () => setDialog('replace') },
    { key: 'tags', label: t('domainSettings.editTags'), onClick: () => setDialog('tags') },
    { key: 'cname', label: t('domainSettings.checkCname'), onClick: () => checked.mutate(undefined) },
    { key: 'export', label: t('domainSettings.export'), onClick: () => exported.mutate(undefined) },
    { key: 'copy', label: t('domainSettings.copyToSite'), onClick: () => setDialog('copy') },
  ];
  const none = !ids.length;
  return (
    <Space>
      <Dropdown menu={{ items, triggerSubMenuAction: 'click' }} trigger={['click']} disabled={none}>
        <Button disabled={none} loading={change.isPending}>
          {t('domainSettings.batch')} <DownOutlined />
        </Button>
      </Dropdown>
      <Popconfirm title={t('sites.confirmRemove')} disabled={none} onConfirm={() => remove.mutate(undefined)}>
        <Button danger disabled={none}>
          {t('sites.remove')}
        </Button>
      </Popconfirm>
      {dialog === 'tags' ? <DomainTagsModal siteId={siteId} ids={ids} onClose={() => setDialog(undefined)} onDone={clear} /> : null}
      {dialog === 'origins' ? <SetOriginsModal siteId={siteId} ids={ids} onClose={() => setDialog(undefined)} onDone={clear} /> : null}
      {dialog === 'replace' ? <ReplaceOriginModal siteId={siteId} ids={ids} onClose={() => setDialog(undefined)} onDone={clear} /> : null}
      {dialog === 'copy' ? <CopyToSiteModal siteId={siteId} ids={ids} onClose={() => setDialog(undefined)} /> : null}
    </Space>
  );
}
