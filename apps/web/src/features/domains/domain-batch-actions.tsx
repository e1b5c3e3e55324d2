import { Button, Dropdown, Popconfirm, Space, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sitesApi } from '../../api/sites';
import { keys } from '../sites/query-keys';
import { useSiteMutation } from '../sites/use-site-mutation';
import { domainsApi, type Balance } from './api';
import { CopyToSiteModal } from './copy-to-site-modal';
import { saveText } from '../../lib/save-text';
import { DomainTagsModal } from './domain-tags-modal';
import { ReplaceOriginModal } from './replace-origin-modal';
import { SetOriginsModal } from './set-origins-modal';
import { useDomainAction } from './use-domain-action';

export const BALANCES: Balance[] = ['round_robin', 'ip_hash', 'least_conn'];

type Props = { siteId: number; ids: number[]; clear: () => void };

/** What can be done to the chosen domains at once; removal asks first. */
export function DomainBatchActions({ siteId, ids, clear }: Props) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'tags' | 'copy' | 'origins' | 'replace'>();
  const refresh = [keys.domains(siteId)];
  const change = useSiteMutation({ fn: (run: () => Promise<unknown>) => run(), success: 'updateSuccess', refresh, done: clear });
  const remove = useSiteMutation({ fn: () => sitesApi.removeDomains(siteId, ids), success: 'removeSuccess', refresh: [...refresh, keys.sites], done: clear });
  const checked = useDomainAction({ fn: () => domainsApi.checkCname(siteId, ids), success: 'detectionSuccess', refresh });
  const exported = useDomainAction({
    fn: () => domainsApi.exportText(siteId, ids),
    success: 'exportSuccess',
    refresh: [],
    done: (text) => saveText(`domains-site-${siteId}.txt`, text),
  });
  const run = (fn: () => Promise<unknown>) => change.mutate(fn);
  const items: MenuProps['items'] = [
    { key: 'enable', label: t('domainSettings.enable'), onClick: () => run(() => domainsApi.setStatus(siteId, ids, 1)) },
    { key: 'disable', label: t('domainSettings.disable'), onClick: () => run(() => domainsApi.setStatus(siteId, ids, 0)) },
    { key: 'forceOn', label: t('domainSettings.forceSslOn'), onClick: () => run(() => domainsApi.setForceSSL(siteId, ids, true)) },
    { key: 'forceOff', label: t('domainSettings.forceSslOff'), onClick: () => run(() => domainsApi.setForceSSL(siteId, ids, false)) },
    { key: 'autoOn', label: t('domainSettings.autoSslOn'), onClick: () => run(() => domainsApi.setAutoSSL(siteId, ids, true)) },
    { key: 'autoOff', label: t('domainSettings.autoSslOff'), onClick: () => run(() => domainsApi.setAutoSSL(siteId, ids, false)) },
    {
      key: 'balance',
      label: t('domainSettings.balance'),
      children: BALANCES.map((b) => ({ key: `balance-${b}`, label: t(`domainSettings.balanceOf.${b}`), onClick: () => run(() => domainsApi.setBalance(siteId, ids, b)) })),
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
