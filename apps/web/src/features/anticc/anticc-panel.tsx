import { Button, Popconfirm, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { RemoveLink } from '../sites/remove-link';
import { useSiteMutation } from '../sites/use-site-mutation';
import { anticc, anticcKeys, MODES, type AnticcRule } from './queries';
import { AnticcModal } from './anticc-modal';

/** A site's anti-CC rules; the firewall screen mounts this as its anti-CC tab. */
export function AnticcPanel({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('firewall.edit');
  const [editing, setEditing] = useState<AnticcRule | 'new'>();
  const refresh = [anticcKeys.list(siteId)];
  const enable = useSiteMutation({ fn: (v: { ids: number[]; enabled: boolean }) => anticc.enable(siteId, v), success: 'updateSuccess', refresh });
  const remove = useSiteMutation({ fn: (ids: number[]) => anticc.remove(siteId, ids), success: 'removeSuccess', refresh });
  const columns: TableColumnsType<AnticcRule> = [
    { key: 'priority', title: t('advancedFirewall.priority'), dataIndex: 'priority', sorter: true, width: 100 },
    { key: 'urlRegex', title: t('antiCC.urlRegex'), sorter: true, render: (_, r) => <Typography.Text code>{r.urlRegex}</Typography.Text> },
    { key: 'threshold', title: t('antiCC.threshold'), render: (_, r) => t('antiCC.thresholdText', { times: r.times, seconds: r.seconds }) },
    { key: 'type', title: t('antiCC.mode'), render: (_, r) => <Tag>{t(`antiCC.modes.${MODES[r.type]}`)}</Tag> },
    {
      key: 'enabled',
      title: t('advancedFirewall.enabled'),
      render: (_, r) => <Switch size="small" checked={r.enabled} disabled={!editable} onChange={(enabled) => enable.mutate({ ids: [r.id], enabled })} />,
    },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, r) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('sites.edit')}
            </Button>
            {r.enabled ? (
              <Typography.Text type="secondary">{t('antiCC.closeFirst')}</Typography.Text>
            ) : (
              <RemoveLink name={r.urlRegex} onConfirm={() => remove.mutate([r.id])} />
            )}
          </Space>
        ) : null,
    },
  ];
  return (
    <>
      <DataTable<AnticcRule>
        scope="anticc"
        queryKey={anticcKeys.list(siteId)}
        fetch={(query) => anticc.list(siteId, query)}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')} data-testid="add-anticc">
              {t('antiCC.add')}
            </Button>
          ) : null
        }
        batch={
          editable
            ? (selected, clear) => {
                const ids = selected.map(Number);
                return (
                  <Space>
                    <Button disabled={!ids.length} onClick={() => enable.mutate({ ids, enabled: true }, { onSuccess: clear })}>
                      {t('advancedFirewall.batchEnable')}
                    </Button>
                    <Button disabled={!ids.length} onClick={() => enable.mutate({ ids, enabled: false }, { onSuccess: clear })}>
                      {t('advancedFirewall.batchClose')}
                    </Button>
                    <Popconfirm title={t('advancedFirewall.confirmRemoveRules', { count: ids.length })} disabled={!ids.length} onConfirm={() => remove.mutate(ids, { onSuccess: clear })}>
                      <Button danger disabled={!ids.length}>
                        {t('advancedFirewall.batchRemove')}
                      </Button>
                    </Popconfirm>
                  </Space>
                );
              }
            : undefined
        }
      />
      {editing ? <AnticcModal siteId={siteId} rule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}
