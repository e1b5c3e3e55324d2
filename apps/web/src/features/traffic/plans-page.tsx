import { Button, Card, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { RemoveLink } from '../sites/remove-link';
import { MonthFilter } from './month-filter';
import { PlanFormModal } from './plan-form-modal';
import { UserFilter } from './user-filter';
import { useMetaProducts } from '../products/queries';
import { fetchPlans, trafficKeys, useRemovePlans, type ExtraTrafficPlan } from './queries';

const period = (p: { year: number; month: number }) => `${p.year}/${String(p.month).padStart(2, '0')}`;

/** Extra traffic plans (spec: traffic packages): a client manages its users' plans, a user sees its own. */
export default function PlansPage() {
  const { t } = useTranslation();
  const tier = useTier() === 'client' ? 'client' : 'user';
  const canEdit = useCan()('traffic.edit') && tier === 'client';
  const [open, setOpen] = useState<{ plan?: ExtraTrafficPlan }>();
  const products = useMetaProducts(tier === 'client');
  const remove = useRemovePlans();
  const removed = () => toast.success(t('traffic.removed'));
  const columns: TableColumnsType<ExtraTrafficPlan> = [
    { key: 'siteName', dataIndex: 'siteName', title: t('traffic.site'), sorter: true },
    ...(tier === 'client' ? [{ key: 'userEmail', dataIndex: 'userEmail', title: t('traffic.user') }] : []),
    { key: 'productName', dataIndex: 'productName', title: t('traffic.product') },
    { key: 'trafficGB', dataIndex: 'trafficGB', title: t('traffic.trafficGB'), sorter: true },
    { key: 'price', dataIndex: 'price', title: t('traffic.price'), sorter: true, render: (v: number) => v.toFixed(2) },
    { key: 'month', title: t('traffic.month'), render: (_, p) => period(p) },
    { key: 'memo', dataIndex: 'memo', title: t('traffic.memo') },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('traffic.createdAt'), sorter: true, render: (v: string) => formatDate(v) },
    ...(canEdit
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            fixed: 'right' as const,
            render: (_: unknown, p: ExtraTrafficPlan) => (
              <Space size="small">
                <Button size="small" type="link" onClick={() => setOpen({ plan: p })}>
                  {t('common.edit')}
                </Button>
                <RemoveLink name={`${p.siteName} ${period(p)}`} onConfirm={() => remove.mutate([p.id], { onSuccess: removed })} />
              </Space>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card title={t('menu.trafficPkgList')}>
      <DataTable<ExtraTrafficPlan>
        queryKey={trafficKeys.plans(tier)}
        fetch={(query) => fetchPlans(tier, query)}
        columns={columns}
        rowKey="id"
        filters={
          <>
            {tier === 'client' ? <UserFilter placeholder={t('traffic.filterUser')} /> : null}
            {tier === 'client' ? (
              <SelectFilter name="productID" placeholder={t('traffic.filterProduct')} options={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))} />
            ) : null}
            <TextFilter name="productName" placeholder={t('traffic.filterProductName')} />
            <MonthFilter placeholder={t('traffic.allMonths')} />
          </>
        }
        toolbar={
          canEdit ? (
            <Button type="primary" onClick={() => setOpen({})}>
              {t('traffic.createPlan')}
            </Button>
          ) : null
        }
        batch={
          canEdit
            ? (selected, clear) => (
                <Popconfirm title={t('traffic.confirmRemove', { count: selected.length })} disabled={!selected.length} onConfirm={() => remove.mutate(selected.map(Number), { onSuccess: () => { removed(); clear(); } })}>
                  <Button danger disabled={!selected.length}>
                    {t('common.removeSelected')}
                  </Button>
                </Popconfirm>
              )
            : undefined
        }
      />
      {open ? <PlanFormModal plan={open.plan} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
