import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Select, Space, Switch, Tag, type TableColumnsType } from 'antd';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { BALANCES } from '@edgekeep/contract/schemas/domains';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { CnameStatusTag } from '../domains/cname-status-tag';
import { BALANCE_LABELS, DomainBatchActions } from '../domains/domain-batch-actions';
import { DomainFilters } from '../domains/domain-filters';
import { PROTOCOL_LABELS } from '../domains/domain-settings-summary';
import { DomainTagsModal } from '../domains/domain-tags-modal';
import { ReplaceOriginModal } from '../domains/replace-origin-modal';
import { SchemeModal } from '../domains/scheme-modal';
import { useDomainAction } from '../domains/use-domain-action';
import { AddDomainsModal } from './add-domains-modal';
import { OriginsDrawer } from './origins-drawer';
import { useSiteMutation } from './use-site-mutation';
import { AutoSslStatusTag } from '../auto-ssl/auto-ssl-status';
import { useSiteAutoCertificates } from '../auto-ssl/queries';
import { RemoveLink } from './remove-link';
import { useSiteCan } from './use-site-can';
import { siteCalls, siteKeys, type Domain, type UpdateDomainBody } from './queries';
import { domainCalls } from '../domains/queries';

export function DomainsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const can = useSiteCan();
  const editable = can('domains.edit');
  const [adding, setAdding] = useState(false);
  const [origins, setOrigins] = useState<Domain>();
  const [scheme, setScheme] = useState<Domain>();
  const [tagging, setTagging] = useState<Domain>();
  const [replacing, setReplacing] = useState(false);
  // Which certificate serves each domain: HSTS and force-SSL warn when there is none.
  const certificates = useQuery({
    queryKey: siteKeys.allCertificates(siteId),
    queryFn: () => siteCalls.certificates(siteId, { page: 1, pageSize: MAX_PAGE_SIZE }),
    enabled: can('certificates.view'),
  });
  const autoStates = useSiteAutoCertificates(siteId);
  const autoStateOf = (domainId: number) => autoStates.data?.find((a) => a.domainId === domainId);
  const certificateOf = (domainId: number) => certificates.data?.data.find((c) => c.domains.some((d) => d.id === domainId));
  const update = useSiteMutation({
    fn: (body: UpdateDomainBody) => siteCalls.updateDomain(siteId, body),
    success: 'updateSuccess',
    refresh: [siteKeys.domains(siteId)],
  });
  const setting = useSiteMutation({ fn: (run: () => Promise<unknown>) => run(), success: 'updateSuccess', refresh: [siteKeys.domains(siteId)] });
  const checkAll = useDomainAction({ fn: () => domainCalls.checkCname(siteId), success: 'detectionSuccess', refresh: [siteKeys.domains(siteId)] });
  const remove = useSiteMutation({
    fn: (ids: number[]) => siteCalls.removeDomains(siteId, ids),
    success: 'removeSuccess',
    refresh: [siteKeys.domains(siteId), siteKeys.sites],
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
          onChange={(on) => setting.mutate(() => domainCalls.setStatus(siteId, [d.id], on ? 1 : 0))}
        />
      ),
    },
    {
      key: 'protocol',
      title: t('domains.protocol'),
      render: (_, d) => (
        <Button size="small" disabled={!editable} aria-label={`scheme ${d.name}`} onClick={() => setScheme(d)}>
          {t(`domains.${PROTOCOL_LABELS[d.protocol]}`)}
          {d.portMap.enabled ? ` · ${t('domainSettings.portMapShort')}` : ''}
        </Button>
      ),
    },
    {
      key: 'balance',
      title: t('domainSettings.balance'),
      render: (_, d) => (
        <Select
          size="small"
          style={{ width: 130 }}
          value={d.balance}
          disabled={!editable}
          aria-label={`balance ${d.name}`}
          options={BALANCES.map((value) => ({ value, label: t(BALANCE_LABELS[value]) }))}
          onChange={(balance) => setting.mutate(() => domainCalls.setBalance(siteId, [d.id], balance))}
        />
      ),
    },
    { key: 'cnameStatus', title: t('domainSettings.cnameStatus'), sorter: true, render: (_, d) => <CnameStatusTag status={d.cnameStatus} checkedAt={d.cnameCheckedAt} /> },
    {
      key: 'autoSSL',
      title: t('domainSettings.autoSSL'),
      render: (_, d) => (
        <Switch
          size="small"
          checked={d.autoSSL}
          disabled={!editable}
          aria-label={`autoSSL ${d.name}`}
          onChange={(on) => setting.mutate(() => domainCalls.setAutoSSL(siteId, [d.id], on), { onSuccess: () => void autoStates.refetch() })}
        />
      ),
    },
    {
      key: 'autoSSLStatus',
      title: t('autoSsl.state'),
      render: (_, d) => {
        const state = d.autoSSL ? autoStateOf(d.id) : undefined;
        return state ? <AutoSslStatusTag status={state.status} error={state.error} /> : '-';
      },
    },
    {
      key: 'tags',
      title: t('sites.tags'),
      render: (_, d) => (
        <Space size={4} wrap>
          {d.tags.map((tag) => (
            <Tag key={tag}>{tag}</Tag>
          ))}
          {editable ? (
            <Button size="small" type="link" aria-label={`tags ${d.name}`} onClick={() => setTagging(d)}>
              {t('sites.edit')}
            </Button>
          ) : null}
        </Space>
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
        queryKey={siteKeys.domains(siteId)}
        fetch={(query) => siteCalls.domains(siteId, query)}
        columns={columns}
        rowKey="id"
        filters={<DomainFilters siteId={siteId} />}
        toolbar={
          editable ? (
            <Space>
              <Button type="primary" onClick={() => setAdding(true)}>
                {t('domains.addDomains')}
              </Button>
              <Button loading={checkAll.isPending} onClick={() => checkAll.mutate(undefined)}>
                {t('domainSettings.checkAllCname')}
              </Button>
              <Button onClick={() => setReplacing(true)}>{t('domainSettings.replaceOrigin')}</Button>
            </Space>
          ) : null
        }
        batch={editable ? (selected, clear) => <DomainBatchActions siteId={siteId} ids={selected as number[]} clear={clear} /> : undefined}
      />
      {scheme ? <SchemeModal siteId={siteId} domain={scheme} onClose={() => setScheme(undefined)} /> : null}
      {tagging ? <DomainTagsModal siteId={siteId} ids={[tagging.id]} initial={tagging.tags} onClose={() => setTagging(undefined)} /> : null}
      {replacing ? <ReplaceOriginModal siteId={siteId} onClose={() => setReplacing(false)} /> : null}
      <AddDomainsModal siteId={siteId} open={adding} onClose={() => setAdding(false)} />
      {origins ? <OriginsDrawer siteId={siteId} domain={origins} editable={editable} onClose={() => setOrigins(undefined)} /> : null}
    </>
  );
}
