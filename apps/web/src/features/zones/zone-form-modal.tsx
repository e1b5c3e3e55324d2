import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEXT_FIELD_MAX } from '@edgekeep/contract/constants';
import { infraApi } from '../../api/infra';
import type { Zone, ZoneBody } from '../../api/infra-types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';

/** Create a zone, or rename one and change its regions and memo. */
export function ZoneFormModal({ zone, onClose }: { zone?: Zone; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<ZoneBody>();
  const save = useMutation({
    mutationFn: (body: ZoneBody) => (zone ? infraApi.updateZone({ ...body, id: zone.id }) : infraApi.createZone(body)),
    onSuccess: () => {
      toast.success(t(zone ? 'infra.updateSuccess' : 'infra.createSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['zones'] });
      void queryClient.invalidateQueries({ queryKey: ['metaZones'] });
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
        onFinish={(v) => save.mutate({ name: v.name.trim(), regions: v.regions ?? '', memo: v.memo ?? '' })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="regions" label={t('zones.regions')} rules={[{ max: TEXT_FIELD_MAX, message: t('validation.wrongFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="memo" label={t('infra.memo')} rules={[{ max: TEXT_FIELD_MAX, message: t('validation.wrongFormat') }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
