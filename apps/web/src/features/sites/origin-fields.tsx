import { Col, Form, Input, InputNumber, Row, Switch, type FormRule } from 'antd';
import { domainSchemas, edge } from '@edgekeep/contract';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';

export const ORIGIN_DEFAULTS = { port: edge.UPSTREAM_DEFAULT_PORT, weight: edge.UPSTREAM_WEIGHT_MIN, backup: false };

/** An origin's host, port, weight (1–100) and backup flag; `name` is the form path of one origin. */
export function OriginFields({ name }: { name: (string | number)[] }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const host: FormRule = {
    validator: (_, v) =>
      !v || domainSchemas.upstreamInput.shape.host.safeParse(String(v).trim()).success
        ? Promise.resolve()
        : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  return (
    <Row gutter={8} align="top">
      <Col flex="auto">
        <Form.Item name={[...name, 'host']} label={t('domains.host')} rules={[rules.required, host]}>
          <Input placeholder="203.0.113.10" />
        </Form.Item>
      </Col>
      <Col flex="110px">
        <Form.Item name={[...name, 'port']} label={t('domains.port')} rules={[rules.required]}>
          <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col flex="100px">
        <Form.Item name={[...name, 'weight']} label={t('domains.weight')} rules={[rules.required]}>
          <InputNumber min={edge.UPSTREAM_WEIGHT_MIN} max={edge.UPSTREAM_WEIGHT_MAX} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col flex="80px">
        <Form.Item name={[...name, 'backup']} label={t('domains.backup')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
    </Row>
  );
}
