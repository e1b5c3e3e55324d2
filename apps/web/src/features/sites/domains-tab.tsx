import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Select, Switch, Tag, type TableColumnsType } from 'antd';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sitesApi, type Domain, type UpdateDomainBody } from '../../api/sites';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { AddDomainsModal } from './add-domains-modal';
import { OriginsDrawer } from './origins-drawer';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';
import { RemoveLink } from './remove-link';

const PROTOCOL_LABELS = { http: 'protocolHttp', https: 'protocolHttps', follow: 'protocolFollow' } as const;

export function DomainsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const editable = can('domains.edit');
  const [adding, setAdding] = useState(false);
  const [origins, setOrigins] = useState<Domain>();
  // Which certificate serves each domain: HSTS and force-SSL warn when there is none.
  const certificates = useQuery({
    queryKey: [...keys.certificates(siteId), 'all'],
    queryFn: () => sitesApi.certificates(siteId, { page: 1, pageSize: MAX_PAGE_SIZE }),
    enabled: can('certificates.view'),
  });
  const certificateOf = (domainId: number) => certificates.data?.data.find((c) => c.domains.some((d) => d.id === domainId));
  const update = useSiteMutation({
    fn: (body: UpdateDomainBody) => sitesApi.updateDomain(siteId, body),
    success: 'updateSuccess',
    refresh: [keys.domains(siteId)],
  });
  const remove = useSiteMutation({
    fn: (ids: number[]) => sitesApi.removeDomains(siteId, ids),
    success: 'removeSuccess',
    refresh: [keys.domains(siteId), keys.sites],
  });

  /** A switch that asks first when turning on a setting that needs a certificate the domain lacks. */
  const httpsSwitch = (d: Domain, field: 'forceSSL' | 'hsts', warning: string) => {
    const warn = editable && !d[field] && !certificateOf(d.id);
    const toggle = (on: boolean) => update.mutate({ id: d.id, [field]: on });
    const control = (
      <Switch size="small" checked={d[field]} disabled={!editable} aria-label={`${field} ${d.name}`} onChange={warn ? undefined : toggle} />
    );
    if (!warn) return control;
    return (
      <Popconfirm title={warning} onConfirm={() => toggle(true)} okText={t('common.yes')} cancelText={t('common.no')}>
        {control}
      </Popconfirm>
    );
  };
  const columns: TableColumnsType<Domain> = [
    { key: 'name', title: t('domains.domain'), dataIndex: 'name', sorter: true },
    {
      key: 'status',
      title: t('domains.enabled'),
      render: (_, d) => (
        <Switch
          size="small"
          checked={d.status === 1}
          disabled={!editable}
          aria-label={`status ${d.name}`}
          onChange={(on) => update.mutate({ id: d.id, status: on ? 1 : 0 })}
        />
      ),
    },
    {
      key: 'protocol',
      title: t('domains.protocol'),
      render: (_, d) => (
        <Select
          size="small"
          style={{ width: 110 }}
          value={d.protocol}
          disabled={!editable}
          options={Object.entries(PROTOCOL_LABELS).map(([value, label]) => ({ value, label: t(`domains.${label}`) }))}
          onChange={(protocol) => update.mutate({ id: d.id, protocol })}
        />
      ),
    },
    { key: 'forceSSL', title: t('domains.forceSSL'), render: (_, d) => httpsSwitch(d, 'forceSSL', t('domains.forceSslNoCertificate')) },
    { key: 'hsts', title: t('domains.hsts'), render: (_, d) => httpsSwitch(d, 'hsts', t('domains.hstsNoCertificate')) },
    {
      key: 'certificate',
      title: t('domains.certificate'),
      render: (_, d) => certificateOf(d.id)?.name ?? <Tag>{t('domains.noCertificate')}</Tag>,
    },
    {
      key: 'origins',
      title: t('domains.origins'),
      render: (_, d) => (
        <Button size="small" onClick={() => setOrigins(d)}>
          {d.upstreams.map((u) => `${u.host}:${u.port}`).join(', ')}
        </Button>
      ),
    },
    { key: 'createdAt', title: t('sites.createdAt'), sorter: true, render: (_, d) => formatDate(d.createdAt) },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, d) =>
        editable ? (
          <RemoveLink name={d.name} onConfirm={() => remove.mutate([d.id])} />
        ) : null,
    },
  ];
  return (
    <>
      <DataTable<Domain>
        queryKey={keys.domains(siteId)}
        fetch={(query) => sitesApi.domains(siteId, query)}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="keywords" placeholder={t('domains.keyword')} />}
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setAdding(true)}>
              {t('domains.addDomains')}
            </Button>
          ) : null
        }
        batch={
          editable
            ? (selected, clear) => (
                <Popconfirm title={t('sites.confirmRemove')} disabled={!selected.length} onConfirm={() => remove.mutate(selected as number[], { onSuccess: clear })}>
                  <Button danger disabled={!selected.length}>
                    {t('sites.remove')}
                  </Button>
                </Popconfirm>
              )
            : undefined
        }
      />
      <AddDomainsModal siteId={siteId} open={adding} onClose={() => setAdding(false)} />
      {origins ? <OriginsDrawer siteId={siteId} domain={origins} editable={editable} onClose={() => setOrigins(undefined)} /> : null}
    </>
  );
}
