import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { covers } from './certificate-covers';
import { useSiteMutation } from './use-site-mutation';
import { siteCalls, siteKeys, useAllDomains, type Certificate } from './queries';

/** Serves a certificate on the site's domains it covers (the chosen set replaces the old one). */
export function BindCertificateModal({ siteId, certificate, onClose }: { siteId: number; certificate: Certificate; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ domainIDs: number[] }>();
  const domains = useAllDomains(siteId);
  const bind = useSiteMutation({
    fn: (domainIDs: number[]) => siteCalls.bindCertificate(siteId, certificate.id, domainIDs),
    success: 'updateSuccess',
    refresh: [siteKeys.certificates(siteId), siteKeys.domains(siteId)],
    done: onClose,
  });
  const options = (domains.data?.data ?? []).filter((d) => covers(certificate.names, d.name)).map((d) => ({ value: d.id, label: d.name }));
  return (
    <Modal open title={`${t('certificates.bind')}: ${certificate.name}`} onCancel={onClose} onOk={() => form.submit()} confirmLoading={bind.isPending}>
      <Form form={form} layout="vertical" initialValues={{ domainIDs: certificate.domains.map((d) => d.id) }} onFinish={(v) => bind.mutate(v.domainIDs)}>
        <Form.Item name="domainIDs" label={t('certificates.domains')} extra={t('certificates.bindHint')}>
          <Select mode="multiple" loading={domains.isFetching} options={options} data-testid="bind-domains" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
