import { DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { useMetaSites } from '../client-sites/queries';
import { useSavePlan, type ExtraTrafficPlan } from './queries';

type Values = { siteID: number; trafficGB: number; price?: number | null; month: Dayjs; memo?: string };

/** Creates or changes an extra traffic plan: GB added to one site's allowance for one month. */
export function PlanFormModal({ plan, onClose }: { plan?: ExtraTrafficPlan; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const sites = useMetaSites(!plan);
  const save = useSavePlan(plan?.id);
  const submit = (v: Values) =>
    save.mutate(
      { siteID: v.siteID, trafficGB: v.trafficGB, price: v.price ?? undefined, memo: v.memo?.trim() ?? '', year: v.month.year(), month: v.month.month() + 1 },
      {
        onSuccess: () => {
          toast.success(t(plan ? 'traffic.updated' : 'traffic.created'));
          onClose();
        },
      },
    );
  const initial: Partial<Values> = plan
    ? { siteID: plan.siteID, trafficGB: plan.trafficGB, price: plan.price, memo: plan.memo, month: dayjs(`${plan.year}-${String(plan.month).padStart(2, '0')}-01`) }
    : { month: dayjs().startOf('month'), trafficGB: 1 };
  return (
    <Modal
      open
      title={t(plan ? 'traffic.editPlan' : 'traffic.createPlan')}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="siteID" label={t('traffic.site')} rules={[rules.required]}>
          {plan ? (
            <Select disabled options={[{ value: plan.siteID, label: plan.siteName }]} />
          ) : (
            <Select showSearch={{ optionFilterProp: 'label' }} loading={sites.isFetching} options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))} />
          )}
        </Form.Item>
        <Form.Item name="trafficGB" label={t('traffic.trafficGB')} rules={[rules.required]}>
          <InputNumber min={1} max={1_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="month" label={t('traffic.month')} rules={[rules.required]}>
          <DatePicker picker="month" format={DATE_FORMATS.month} allowClear={false} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="price" label={t('traffic.price')} extra={t('traffic.priceHint')}>
          <InputNumber min={0} max={1_000_000_000} precision={2} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="memo" label={t('traffic.memo')} rules={[{ max: 256, message: t('validation.wrongFormat') }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
