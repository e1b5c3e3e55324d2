import { Col, DatePicker, Form, Input, InputNumber, Modal, Row, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { useZoneOptions } from '../zones/use-meta-zones';
import { useMetaGroups, useSaveProduct, type Product, type ProductBody } from './queries';

type Values = Omit<ProductBody, 'expiredAt'> & { expiredAt?: Dayjs | null };

const DEFAULTS: Partial<Values> = {
  backupGroupID: null,
  domainLimit: 0,
  siteLimit: 0,
  connections: 0,
  bandwidth: 0,
  trafficPrice: 0,
  monthlyTrafficGB: 0,
  exceedAction: 'none',
  sellType: 'self',
  lockDomain: false,
  autoSSLCount: 0,
  accessLog: true,
  cnameMode: 'random',
};

/** Every field of a product (spec §3); counts of 0 mean unlimited. */
export function ProductFormModal({ product, onClose }: { product?: Product; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const zones = useZoneOptions();
  const [form] = Form.useForm<Values>();
  const zoneID = (Form.useWatch('zoneID', form) as number | undefined) ?? product?.zoneID;
  const groups = useMetaGroups(zoneID);
  const groupOptions = (groups.data ?? []).map((g) => ({ value: g.id, label: g.name }));
  const save = useSaveProduct(product?.id);
  const submit = (v: Values) =>
    save.mutate(
      { ...v, name: v.name.trim(), backupGroupID: v.backupGroupID ?? null, expiredAt: v.expiredAt ? v.expiredAt.endOf('day').toISOString() : null },
      {
        onSuccess: () => {
          toast.success(t(product ? 'infra.updateSuccess' : 'infra.createSuccess'));
          onClose();
        },
      },
    );
  const initial: Partial<Values> = product ? { ...product, expiredAt: product.expiredAt ? dayjs(product.expiredAt) : null } : DEFAULTS;
  const count = (name: keyof Values, label: string, extra?: string, max = 1_000_000) => (
    <Col span={12}>
      <Form.Item name={name} label={label} extra={extra} rules={[rules.required]}>
        <InputNumber min={0} max={max} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );
  const choice = (name: keyof Values, label: string, options: { value: string; label: string }[]) => (
    <Col span={12}>
      <Form.Item name={name} label={label} rules={[rules.required]}>
        <Select options={options} />
      </Form.Item>
    </Col>
  );
  const flag = (name: keyof Values, label: string) => (
    <Col span={12}>
      <Form.Item name={name} label={label} valuePropName="checked">
        <Switch />
      </Form.Item>
    </Col>
  );
  return (
    <Modal open width={760} title={t(product ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label={t('infra.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="zoneID" label={t('infra.zone')} rules={[rules.required]}>
              <Select options={zones} onChange={() => form.setFieldsValue({ groupID: undefined, backupGroupID: null })} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="groupID" label={t('infra.group')} rules={[rules.required]}>
              <Select options={groupOptions} loading={groups.isFetching} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="backupGroupID" label={t('products.backupGroup')}>
              <Select allowClear placeholder={t('products.none')} options={groupOptions} />
            </Form.Item>
          </Col>
          {count('domainLimit', t('products.domainLimit'), t('products.zeroUnlimited'))}
          {count('siteLimit', t('products.siteLimit'), t('products.zeroUnlimited'))}
          {count('connections', t('products.connections'), t('products.zeroUnlimited'), 10_000_000)}
          {count('bandwidth', t('products.bandwidth'), t('products.zeroUnlimited'), 10_000_000)}
          <Col span={12}>
            <Form.Item name="trafficPrice" label={t('products.trafficPrice')} rules={[rules.required]}>
              <InputNumber min={0} max={1_000_000} precision={2} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="monthlyTrafficGB" label={t('traffic.monthlyTrafficGB')} extra={t('products.zeroUnlimited')} rules={[rules.required]}>
              <InputNumber min={0} max={1_000_000_000} precision={3} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          {count('autoSSLCount', t('products.autoSSLCount'), t('products.zeroUnlimited'))}
          {choice('exceedAction', t('products.exceedAction'), [
            { value: 'none', label: t('products.exceedNone') },
            { value: 'limit', label: t('products.exceedLimit') },
            { value: 'pause', label: t('products.exceedPause') },
          ])}
          {choice('sellType', t('products.sellType'), [
            { value: 'self', label: t('products.self') },
            { value: 'commercial', label: t('products.commercial') },
          ])}
          {choice('cnameMode', t('products.cnameMode'), [
            { value: 'random', label: t('products.random') },
            { value: 'custom', label: t('products.custom') },
          ])}
          <Col span={12}>
            <Form.Item name="expiredAt" label={t('infra.expiredAt')}>
              <DatePicker format={DATE_FORMATS.date} style={{ width: '100%' }} placeholder={t('infra.never')} />
            </Form.Item>
          </Col>
          {flag('lockDomain', t('products.lockDomain'))}
          {flag('accessLog', t('products.accessLog'))}
        </Row>
      </Form>
    </Modal>
  );
}
