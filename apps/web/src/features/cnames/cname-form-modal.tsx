import { createCnameBody } from '@edgekeep/contract/schemas/dns-settings';
import { Form, Input, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useCnameMutations, type Cname } from '../dns-setting/queries';

type Values = { domain: string; enabled: boolean; memo: string };

/** Adds a CNAME domain, or changes whether one is enabled and its memo (the domain itself stays). */
export function CnameFormModal({ cname, onClose }: { cname?: Cname; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const { create, update } = useCnameMutations();
  const pending = create.isPending || update.isPending;
  const done = () => {
    toast.success(t(cname ? 'infra.updateSuccess' : 'infra.createSuccess'));
    onClose();
  };
  const submit = (v: Values) =>
    cname ? update.mutate({ id: cname.id, enabled: v.enabled, memo: v.memo ?? '' }, { onSuccess: done }) : create.mutate({ domain: v.domain, enabled: v.enabled, memo: v.memo ?? '' }, { onSuccess: done });
  const domainRule = {
    validator: async (_: unknown, value?: string) => {
      if (value && !createCnameBody.shape.domain.safeParse(value).success) throw new Error(t('validation.wrongFormat'));
    },
  };
  return (
    <Modal open title={t(cname ? 'cnames.edit' : 'cnames.add')} okText={t('common.submit')} cancelText={t('common.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={pending}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={cname ? { domain: cname.domain, enabled: cname.enabled, memo: cname.memo } : { enabled: true, memo: '' }}
        onFinish={submit}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="domain" label={t('cnames.domain')} rules={cname ? [] : [rules.required, domainRule]}>
          <Input disabled={Boolean(cname)} placeholder="cdn.example.net" />
        </Form.Item>
        <Form.Item name="enabled" label={t('cnames.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="memo" label={t('infra.memo')} rules={[{ max: 256, message: t('validation.wrongFormat') }]}>
          <Input maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
