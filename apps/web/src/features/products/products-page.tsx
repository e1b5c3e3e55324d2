import { Button, Card, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable, type Column } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { useZoneOptions } from '../zones/use-meta-zones';
import { GroupName } from './group-name';
import { ProductFormModal } from './product-form-modal';
import { fetchProducts, productKeys, useRemoveProduct, type Product } from './queries';
import { RemoveButton } from '../../components/remove-button';

const EXCEED_LABELS = { none: 'products.exceedNone', limit: 'products.exceedLimit', pause: 'products.exceedPause' } as const;

export default function ProductsPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('products.edit');
  const zones = useZoneOptions();
  const [open, setOpen] = useState<{ product?: Product }>();
  const remove = useRemoveProduct(() => toast.success(t('infra.removeSuccess')));
  const limit = (v: number) => (v === 0 ? t('infra.unlimited') : v);
  const flag = (v: boolean) => <Tag color={v ? 'green' : 'default'}>{t(v ? 'common.yes' : 'common.no')}</Tag>;
  const columns: Column<Product>[] = [
    { key: 'name', dataIndex: 'name', title: t('infra.name'), sorter: true },
    { key: 'zoneID', dataIndex: 'zoneID', title: t('infra.zone'), render: (id: number) => zones.find((z) => z.value === id)?.label ?? id },
    { key: 'groupID', title: t('infra.group'), render: (_, p) => <GroupName zoneID={p.zoneID} id={p.groupID} /> },
    { key: 'backupGroupID', detail: true, title: t('products.backupGroup'), render: (_, p) => <GroupName zoneID={p.zoneID} id={p.backupGroupID} /> },
    { key: 'domainLimit', detail: true, dataIndex: 'domainLimit', title: t('products.domainLimit'), render: limit },
    { key: 'siteLimit', dataIndex: 'siteLimit', title: t('products.siteLimit'), render: limit },
    { key: 'siteCount', dataIndex: 'siteCount', title: t('products.siteCount') },
    { key: 'connections', detail: true, dataIndex: 'connections', title: t('products.connections'), render: limit },
    { key: 'bandwidth', detail: true, dataIndex: 'bandwidth', title: t('products.bandwidth'), render: limit },
    { key: 'trafficPrice', detail: true, dataIndex: 'trafficPrice', title: t('products.trafficPrice') },
    { key: 'exceedAction', detail: true, dataIndex: 'exceedAction', title: t('products.exceedAction'), render: (v: Product['exceedAction']) => t(EXCEED_LABELS[v]) },
    { key: 'sellType', dataIndex: 'sellType', title: t('products.sellType'), render: (v: Product['sellType']) => t(v === 'self' ? 'products.self' : 'products.commercial') },
    { key: 'autoSSLCount', detail: true, dataIndex: 'autoSSLCount', title: t('products.autoSSLCount'), render: limit },
    { key: 'lockDomain', detail: true, dataIndex: 'lockDomain', title: t('products.lockDomain'), render: flag },
    { key: 'accessLog', detail: true, dataIndex: 'accessLog', title: t('products.accessLog'), render: flag },
    { key: 'cnameMode', detail: true, dataIndex: 'cnameMode', title: t('products.cnameMode'), render: (v: Product['cnameMode']) => t(v === 'random' ? 'products.random' : 'products.custom') },
    { key: 'expiredAt', dataIndex: 'expiredAt', title: t('infra.expiredAt'), render: (v: string | null) => formatDate(v, 'date') || t('infra.never') },
    { key: 'createdAt', detail: true, dataIndex: 'createdAt', title: t('infra.createdAt'), sorter: true, render: (v: string) => formatDate(v) },
    {
      key: 'actions',
      title: t('infra.actions'),
      fixed: 'right',
      render: (_, p) =>
        canEdit ? (
          <Space size="small">
            <Button size="small" onClick={() => setOpen({ product: p })}>
              {t('infra.edit')}
            </Button>
            <RemoveButton name={p.name} onConfirm={() => remove.mutate(p.id)} />
          </Space>
        ) : null,
    },
  ];
  return (
    <Card title={t('menu.productsList')}>
      <DataTable<Product>
        queryKey={productKeys.all}
        fetch={fetchProducts}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="name" placeholder={t('infra.searchName')} />}
        toolbar={
          canEdit ? (
            <Button type="primary" onClick={() => setOpen({})}>
              {t('infra.create')}
            </Button>
          ) : null
        }
      />
      {open ? <ProductFormModal product={open.product} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
