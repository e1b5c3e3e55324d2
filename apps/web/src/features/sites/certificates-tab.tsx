import { Button, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { BindCertificateModal } from './bind-certificate-modal';
import { CertificateStatusTag } from './certificate-status-tag';
import { AutoSslStatusTag } from '../auto-ssl/auto-ssl-status';
import { useSiteAutoCertificates } from '../auto-ssl/queries';
import { UploadCertificateModal } from './upload-certificate-modal';
import { useSiteMutation } from './use-site-mutation';
import { RemoveLink } from './remove-link';
import { useSiteCan } from './use-site-can';
import { siteCalls, siteKeys, type Certificate } from './queries';

export function CertificatesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useSiteCan()('certificates.edit');
  const [uploading, setUploading] = useState(false);
  const [binding, setBinding] = useState<Certificate>();
  const remove = useSiteMutation({
    fn: (ids: number[]) => siteCalls.removeCertificates(siteId, ids),
    success: 'removeSuccess',
    refresh: [siteKeys.certificates(siteId)],
  });
  const autoStates = useSiteAutoCertificates(siteId);
  const autoStateOf = (certificateId: number) => autoStates.data?.find((a) => a.certificateId === certificateId);
  const columns: TableColumnsType<Certificate> = [
    { key: 'name', title: t('certificates.name'), dataIndex: 'name', sorter: true },
    {
      key: 'names',
      title: t('certificates.names'),
      render: (_, c) => (
        <Space size={4} wrap>
          {c.names.map((n) => (
            <Tag key={n}>{n}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'issuer', title: t('certificates.issuer'), dataIndex: 'issuer' },
    { key: 'notBefore', title: t('certificates.notBefore'), render: (_, c) => formatDate(c.notBefore) },
    { key: 'notAfter', title: t('certificates.notAfter'), sorter: true, render: (_, c) => formatDate(c.notAfter) },
    { key: 'status', title: t('certificates.status'), render: (_, c) => <CertificateStatusTag status={c.status} /> },
    {
      key: 'autoSSL',
      title: t('autoSsl.state'),
      render: (_, c) => {
        const state = autoStateOf(c.id);
        return state ? <AutoSslStatusTag status={state.status} error={state.error} /> : t('autoSsl.uploaded');
      },
    },
    { key: 'domains', title: t('certificates.domains'), render: (_, c) => c.domains.map((d) => d.name).join(', ') || '-' },
    { key: 'createdAt', title: t('sites.createdAt'), sorter: true, render: (_, c) => formatDate(c.createdAt) },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, c) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setBinding(c)}>
              {t('certificates.bind')}
            </Button>
            {c.domains.length ? (
              // Spec §4: an item in use is released before it is removed.
              <Tooltip title={t('certificates.inUse')}>
                <Button size="small" type="link" danger disabled>
                  {t('sites.remove')}
                </Button>
              </Tooltip>
            ) : (
              <RemoveLink name={c.name} onConfirm={() => remove.mutate([c.id])} />
            )}
          </Space>
        ) : null,
    },
  ];
  return (
    <>
      <DataTable<Certificate>
        queryKey={siteKeys.certificates(siteId)}
        fetch={(query) => siteCalls.certificates(siteId, query)}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="name" placeholder={t('certificates.search')} />}
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setUploading(true)}>
              {t('certificates.upload')}
            </Button>
          ) : null
        }
      />
      {uploading ? <UploadCertificateModal siteId={siteId} onClose={() => setUploading(false)} /> : null}
      {binding ? <BindCertificateModal siteId={siteId} certificate={binding} onClose={() => setBinding(undefined)} /> : null}
    </>
  );
}
