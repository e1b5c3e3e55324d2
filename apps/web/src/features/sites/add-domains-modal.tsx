import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Select, Space } from 'antd';
import { createDomainsBody } from '@edgekeep/contract/schemas/domains';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { useLines } from './lines';
import { ORIGIN_DEFAULTS, OriginFields } from './origin-fields';
import { useSiteMutation } from './use-site-mutation';
import { siteCalls, siteKeys, type CreateDomainsBody, type UpstreamInput } from './queries';

type Fields = { domains: string; protocol: Required<CreateDomainsBody>['protocol']; upstreams: UpstreamInput[] };

/**
 * Adds domains in batch, one per line, all with the same origins. A refusal (the 101009 modal lists each
 * refused domain) leaves everything typed in place.
 */
export function AddDomainsModal({ siteId, open, onClose }: { siteId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const lines = useLines();
  const [form] = Form.useForm<Fields>();
  const create = useSiteMutation({
    fn: (body: CreateDomainsBody) => siteCalls.createDomains(siteId, body),
    success: 'createSuccess',
    refresh: [siteKeys.domains(siteId), siteKeys.sites],
    done: () => {
      form.resetFields();
      onClose();
    },
  });
  const submit = (v: Fields) =>
    create.mutate({ domains: lines.split(v.domains), protocol: v.protocol, upstreams: v.upstreams.map((u) => ({ ...u, host: u.host.trim() })) });
  return (
    <Modal
      open={open}
      width={720}
      title={t('domains.addDomains')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={create.isPending}
      forceRender
    >
      <Form<Fields>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ protocol: 'http', upstreams: [ORIGIN_DEFAULTS] }}
        onFinish={submit}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="domains" label={t('domains.domainsLines')} extra={t('domains.domainsHint')} rules={[rules.required, zodRule(createDomainsBody.shape.domains, t('validation.wrongFormat'))]}>
          <Input.TextArea rows={5} placeholder={'www.example.com\nshop.example.com'} />
        </Form.Item>
        <Form.Item name="protocol" label={t('domains.protocol')}>
          <Select
            style={{ width: 160 }}
            options={[
              { value: 'http', label: t('domains.protocolHttp') },
              { value: 'https', label: t('domains.protocolHttps') },
              { value: 'follow', label: t('domains.protocolFollow') },
            ]}
          />
        </Form.Item>
        <Form.List name="upstreams">
          {(fields, ops) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.map((field) => (
                <Space key={field.key} align="start" style={{ width: '100%' }} styles={{ item: { flex: 1 } }}>
                  <OriginFields name={[field.name]} />
                  {fields.length > 1 ? (
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('sites.remove')} onClick={() => ops.remove(field.name)} style={{ marginTop: 30 }} />
                  ) : null}
                </Space>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => ops.add(ORIGIN_DEFAULTS)}>
                {t('domains.addOrigin')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
