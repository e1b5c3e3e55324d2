import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { createZoneBody } from '@edgekeep/contract/schemas/infra';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { useSaveZone, type Zone, type ZoneBody } from './queries';

/** Create a zone, or rename one and change its regions and memo. */
export function ZoneFormModal({ zone, onClose }: { zone?: Zone; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<ZoneBody>();
  const save = useSaveZone(zone?.id);
  const submit = (body: ZoneBody) =>
    save.mutate(body, {
      onSuccess: () => {
        toast.success(t(zone ? 'infra.updateSuccess' : 'infra.createSuccess'));
        onClose();
      },
    });
  return (
    <Modal
      open
      title={t(zone ? 'infra.edit' : 'infra.create')}
      okText={t('common.submit')}
      cancelText={t('infra.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<ZoneBody>
        form={form}
        layout="vertical"
        initialValues={zone ? { name: zone.name, regions: zone.regions, memo: zone.memo } : undefined}
        onFinish={(v) => submit({ name: v.name.trim(), regions: v.regions ?? '', memo: v.memo ?? '' })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, zodRule(createZoneBody.shape.name, t('validation.wrongFormat'))]}>
          <Input />
        </Form.Item>
        <Form.Item name="regions" label={t('zones.regions')} rules={[zodRule(createZoneBody.shape.regions, t('validation.wrongFormat'))]}>
          <Input />
        </Form.Item>
        <Form.Item name="memo" label={t('infra.memo')} rules={[zodRule(createZoneBody.shape.regions, t('validation.wrongFormat'))]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
