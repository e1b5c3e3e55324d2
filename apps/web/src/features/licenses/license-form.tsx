import { licenseSchemas } from '@edgekeep/contract';
import { Col, DatePicker, Form, Input, InputNumber, Modal, Radio, Row, type FormRule } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { License, LicenseFields } from './queries';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';

export const LIMIT_FIELDS = ['siteLimit', 'domainLimit', 'zoneLimit', 'nodeLimit', 'portLimit', 'autoSSLLimit'] as const;
const { LICENSE_DAYS_MAX, LICENSE_LIMIT_MAX, LICENSE_PORT_TYPES } = licenseSchemas;
const NAME_MAX = 64;
const MONITOR_SECONDS_MAX = 86_400;

type Values = Omit<LicenseFields, 'startAt'> & { startAt?: Dayjs | null; request?: string };

const DEFAULTS = {
  days: 365,
  ...Object.fromEntries(LIMIT_FIELDS.map((f) => [f, 0])),
  portType: '7',
  nodeMonitorSeconds: 60,
} as Partial<Values>;

const valuesOf = (license?: License): Partial<Values> =>
  license
    ? { ...license, startAt: license.startAt ? dayjs(license.startAt) : null }
    : DEFAULTS;

type Props = {
  open: boolean;
  title: string;
  license?: License;
  pending: boolean;
  /** Fields before the terms (the registration request when issuing an offline license). */
  extra?: ReactNode;
  onSubmit: (values: LicenseFields & { request?: string }) => void;
  onClose: () => void;
};

/** Every term of spec §3 License; the modal stays open with what was typed until the call succeeds. */
export function LicenseForm(props: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (props.open) form.setFieldsValue({ startAt: null, request: undefined, ...valuesOf(props.license) });
  }, [props.open, props.license, form]);
  const int = (min: number, max: number): FormRule => ({ type: 'integer', min, max, message: t('validation.wrongFormat') });
  const submit = (v: Values) => props.onSubmit({ ...v, startAt: v.startAt ? v.startAt.toISOString() : null });
  return (
    <Modal
      open={props.open}
      title={props.title}
      width={720}
      okText={t('common.submit')}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      forceRender
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
        data-testid="license-form"
      >
        {props.extra}
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label={t('licenses.name')} rules={[rules.required, { max: NAME_MAX, message: t('validation.wrongFormat') }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="days" label={t('licenses.days')} rules={[rules.required, int(1, LICENSE_DAYS_MAX)]}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          {LIMIT_FIELDS.map((field) => (
            <Col span={8} key={field}>
              <Form.Item
                name={field}
                label={t(`licenses.${field}`)}
                extra={t('licenses.zeroUnlimited')}
                rules={[rules.required, int(0, LICENSE_LIMIT_MAX)]}
              >
                <InputNumber style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ))}
          <Col span={8}>
            <Form.Item name="portType" label={t('licenses.portType')} rules={[rules.required]}>
              <Radio.Group options={LICENSE_PORT_TYPES.map((p) => ({ value: p, label: t(`licenses.layer.${p === '7' ? 'l7' : 'l74'}`) }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="nodeMonitorSeconds" label={t('licenses.nodeMonitorSeconds')} rules={[rules.required, int(1, MONITOR_SECONDS_MAX)]}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="startAt" label={t('licenses.startAt')} extra={t('licenses.startAtHint')}>
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
