import { UploadOutlined } from '@ant-design/icons';
import { Button, Descriptions, Form, Input, Modal, Space, Tag, Upload } from 'antd';
import { Codes, messageOf } from '@edgekeep/contract/errors';
import { certificateName } from '@edgekeep/contract/schemas/site-settings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { currentLanguage } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { BindCertificateModal } from './bind-certificate-modal';
import { CertificateStatusTag } from './certificate-status-tag';
import { useSiteMutation } from './use-site-mutation';
import { siteCalls, siteKeys, type Certificate, type CreateCertificateBody } from './queries';

/** A text area for PEM text that can also be filled from a file. */
function PemInput({ value, onChange, testId }: { value?: string; onChange?: (v: string) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.TextArea rows={6} value={value} onChange={(e) => onChange?.(e.target.value)} style={{ fontFamily: 'monospace' }} data-testid={testId} />
      <Upload
        accept=".pem,.crt,.cer,.key,.txt"
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then((text) => onChange?.(text));
          return false;
        }}
      >
        <Button size="small" icon={<UploadOutlined />}>
          {t('certificates.fromFile')}
        </Button>
      </Upload>
    </Space>
  );
}

/** Uploads a PEM chain and its key, then shows what the server read from the chain, with a way to bind it. */
export function UploadCertificateModal({ siteId, onClose }: { siteId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<CreateCertificateBody>();
  const [uploaded, setUploaded] = useState<Certificate>();
  const [binding, setBinding] = useState(false);
  const create = useSiteMutation({
    fn: (body: CreateCertificateBody) => siteCalls.createCertificate(siteId, body),
    success: 'createSuccess',
    refresh: [siteKeys.certificates(siteId)],
    done: setUploaded,
  });
  const nameRule = zodRule(certificateName, messageOf(Codes.InvalidCertificateName, currentLanguage()) ?? t('validation.wrongFormat'));
  if (uploaded && binding) return <BindCertificateModal siteId={siteId} certificate={uploaded} onClose={onClose} />;
  if (uploaded) {
    return (
      <Modal
        open
        width={720}
        title={t('certificates.upload')}
        onCancel={onClose}
        footer={[
          <Button key="bind" onClick={() => setBinding(true)}>
            {t('certificates.bind')}
          </Button>,
          <Button key="ok" type="primary" onClick={onClose}>
            {t('common.confirm')}
          </Button>,
        ]}
      >
        <p>{t('certificates.uploaded')}</p>
        <Descriptions column={1} bordered size="small" data-testid="certificate-details">
          <Descriptions.Item label={t('certificates.name')}>{uploaded.name}</Descriptions.Item>
          <Descriptions.Item label={t('certificates.names')}>
            {uploaded.names.map((n) => (
              <Tag key={n}>{n}</Tag>
            ))}
          </Descriptions.Item>
          <Descriptions.Item label={t('certificates.subject')}>{uploaded.subject}</Descriptions.Item>
          <Descriptions.Item label={t('certificates.issuer')}>{uploaded.issuer}</Descriptions.Item>
          <Descriptions.Item label={t('certificates.validity')}>
            {formatDate(uploaded.notBefore)} – {formatDate(uploaded.notAfter)}
          </Descriptions.Item>
          <Descriptions.Item label={t('certificates.status')}>
            <CertificateStatusTag status={uploaded.status} />
          </Descriptions.Item>
        </Descriptions>
      </Modal>
    );
  }
  return (
    <Modal open width={720} title={t('certificates.upload')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={create.isPending}>
      <Form<CreateCertificateBody>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => create.mutate({ ...v, name: v.name.trim() })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="name" label={t('certificates.name')} rules={[rules.required, nameRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="certificate" label={t('certificates.chain')} rules={[rules.required]}>
          <PemInput testId="certificate-chain" />
        </Form.Item>
        <Form.Item name="key" label={t('certificates.key')} rules={[rules.required]}>
          <PemInput testId="certificate-key" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
