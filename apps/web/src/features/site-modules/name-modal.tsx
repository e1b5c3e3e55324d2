import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';

/** Asks for a module's name: to create one, or to rename it. */
export function NameModal(o: { title: string; name?: string; pending: boolean; onSave: (name: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ name: string }>();
  return (
    <Modal open title={o.title} onCancel={o.onClose} onOk={() => form.submit()} confirmLoading={o.pending}>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ name: o.name }} onFinish={(v) => o.onSave(v.name.trim())} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="name" label={t('siteModules.name')} rules={[rules.required, { max: 256, message: t('validation.wrongFormat') }]}>
          <Input autoFocus data-testid="module-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
