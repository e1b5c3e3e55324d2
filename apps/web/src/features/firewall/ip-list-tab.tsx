import type { TFunction } from 'i18next';
import { Button, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { RemoveLink } from '../sites/remove-link';
import { firewallKeys, ipLists, type IpList, type IpRule } from './queries';
import { BatchButtons } from './batch-buttons';
import { IpRuleModal } from './ip-rule-modal';
import { useFirewallMutation } from './use-firewall-mutation';

/** The site's black- or whitelist: addresses with optional path, methods and port. */
export function IpListTab({ siteId, list }: { siteId: number; list: IpList }) {
  const { t } = useTranslation();
  const editable = useCan()('firewall.edit');
  const [editing, setEditing] = useState<IpRule | 'new'>();
  const enable = useFirewallMutation({ siteId, list, fn: (v: { ids: number[]; enabled: boolean }) => ipLists.enable(siteId, list, v), success: 'updateSuccess' });
  const remove = useFirewallMutation({ siteId, list, fn: (ids: number[]) => ipLists.remove(siteId, list, ids), success: 'removeSuccess' });
  const columns: TableColumnsType<IpRule> = [
    { key: 'ip', title: t('firewall.ip'), sorter: true, render: (_, r) => <Typography.Text code>{r.ip}</Typography.Text> },
    {
      key: 'conditions',
      title: t('firewall.conditions'),
      render: (_, r) => (
        <Space size={4} wrap>
          {r.url ? <Tag>{r.url}</Tag> : null}
          {r.methodValues.map((m) => <Tag key={m}>{m}</Tag>)}
          {r.port ? <Tag>{t('firewall.portN', { port: r.port })}</Tag> : null}
          {!r.url && !r.methodValues.length && !r.port ? <Typography.Text type="secondary">{t('firewall.anyRequest')}</Typography.Text> : null}
        </Space>
      ),
    },
    { key: 'memo', title: t('advancedFirewall.memo'), dataIndex: 'memo' },
    { key: 'createdAt', title: t('firewall.createdAt'), sorter: true, render: (_, r) => formatDate(r.createdAt) },
    enabledColumn({ t, editable, onChange: (id, enabled) => enable.mutate({ ids: [id], enabled }) }),
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, r) => (editable ? <RowActions name={r.ip} enabled={r.enabled} onEdit={() => setEditing(r)} onRemove={() => remove.mutate([r.id])} /> : null),
    },
  ];
  return (
    <>
      <DataTable<IpRule>
        scope={list}
        queryKey={firewallKeys.list(siteId, list)}
        fetch={(query) => ipLists.list(siteId, list, query)}
        columns={columns}
        rowKey="id"
        filters={<TextFilter scope={list} name="ip" placeholder={t('firewall.ip')} />}
        batch={editable ? (selected, clear) => <BatchButtons selected={selected} clear={clear} enable={enable.mutate} /> : undefined}
        toolbar={editable ? <Button type="primary" onClick={() => setEditing('new')} data-testid={`add-${list}`}>{t('firewall.addEntries')}</Button> : null}
      />
      {editing ? <IpRuleModal siteId={siteId} list={list} rule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}

type T = TFunction;

/** The on/off switch of a row. */
export function enabledColumn<R extends { id: number; enabled: boolean }>({ t, editable, onChange }: { t: T; editable: boolean; onChange: (id: number, enabled: boolean) => void }) {
  return {
    key: 'enabled',
    title: t('advancedFirewall.enabled'),
    width: 90,
    render: (_: unknown, r: R) => <Switch size="small" checked={r.enabled} disabled={!editable} onChange={(v) => onChange(r.id, v)} />,
  };
}

/** Edit, and remove once the row is closed. */
export function RowActions({ name, enabled, onEdit, onRemove }: { name: string; enabled: boolean; onEdit: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button size="small" type="link" onClick={onEdit}>
        {t('sites.edit')}
      </Button>
      {enabled ? <Typography.Text type="secondary">{t('antiCC.closeFirst')}</Typography.Text> : <RemoveLink name={name} onConfirm={onRemove} />}
    </Space>
  );
}
