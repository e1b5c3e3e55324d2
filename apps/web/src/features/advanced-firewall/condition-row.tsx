import { MinusCircleOutlined } from '@ant-design/icons';
import { edge } from '@edgekeep/contract';
import { Button, Checkbox, Form, Input, InputNumber, Select, Typography, type FormInstance, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AclCondition } from './queries';

/** A condition as the form holds it: one text value, or a list for in / not in. */
export type ConditionForm = { field: edge.AclField; operator: edge.AclOperator; name?: string; value?: string; values?: string[]; regex?: boolean; seconds?: number };

/** The builder's operator order; a field offers those of them that fit it. */
const OPERATOR_ORDER = ['eq', 'ne', 'contains', 'notContains', 'in', 'notIn', 'gt', 'lt', 'ge', 'le'] as const satisfies readonly edge.AclOperator[];

export const isList = (op?: edge.AclOperator) => op === 'in' || op === 'notIn';

export const toCondition = (c: ConditionForm): AclCondition => ({
  field: c.field,
  operator: c.operator,
  name: c.name?.trim() ?? '',
  value: isList(c.operator) ? (c.values ?? []).map((v) => v.trim()).filter(Boolean) : (c.value ?? '').trim(),
  regex: Boolean(c.regex) && (c.operator === 'contains' || c.operator === 'notContains'),
  seconds: c.field === 'frequency' ? (c.seconds ?? 60) : 60,
});

export const toForm = (c: AclCondition): ConditionForm => ({
  field: c.field,
  operator: c.operator,
  name: c.name,
  ...(Array.isArray(c.value) ? { values: c.value } : { value: c.value }),
  regex: c.regex,
  seconds: c.seconds,
});

const PLACEHOLDERS: Partial<Record<edge.AclField, string>> = {
  ip: '203.0.113.0/24', method: 'POST', uri: '/admin', query: 'id=1', referer: 'https://spam.example', userAgent: 'curl',
  asn: '13335', country: 'CN', frequency: '100', header: 'yes', cookie: 'value',
};

/** Checks one condition with the contract's rules, answering the message in the console's language. */
function useConditionRule(form: FormInstance, index: number): FormRule {
  const { t } = useTranslation();
  return {
    validator: () => {
      const c = form.getFieldValue(['conditions', index]) as ConditionForm | undefined;
      if (!c?.field || !c.operator) return Promise.reject(new Error(t('validation.required')));
      const problem = edge.conditionProblem(edge.aclCondition.parse(toCondition(c)));
      if (!problem) return Promise.resolve();
      if (problem.includes('regular expression is refused')) return Promise.reject(new Error(t('advancedFirewall.regexRefused', { reason: problem.split(': ').pop() })));
      if (problem.includes('needs a list')) return Promise.reject(new Error(t('advancedFirewall.needList')));
      if (problem.includes('needs a name')) return Promise.reject(new Error(t('advancedFirewall.needName')));
      if (problem.includes('needs a value')) return Promise.reject(new Error(t('validation.required')));
      if (problem.includes('does not fit')) return Promise.reject(new Error(t('advancedFirewall.operatorMismatch')));
      return Promise.reject(new Error(t('advancedFirewall.badValue')));
    },
  };
}

export function ConditionRow({ form, index, fieldKey, onRemove, removable }: { form: FormInstance; index: number; fieldKey: number; onRemove: () => void; removable: boolean }) {
  const { t } = useTranslation();
  const rule = useConditionRule(form, index);
  const field = Form.useWatch(['conditions', index, 'field'], form) as edge.AclField | undefined;
  const operator = Form.useWatch(['conditions', index, 'operator'], form) as edge.AclOperator | undefined;
  const operators = field ? OPERATOR_ORDER.filter((o) => edge.FIELD_OPERATORS[field].includes(o)) : [];
  const named = field === 'header' || field === 'cookie';
  const textMatch = operator === 'contains' || operator === 'notContains';
  const revalidate = () => form.validateFields([['conditions', index, 'value']]).catch(() => undefined);
  return (
    <div data-testid={`condition-${index}`} key={fieldKey} style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-start' }}>
      <Form.Item name={[index, 'field']} rules={[{ required: true, message: t('validation.required') }]}>
        <Select
          style={{ width: 150 }}
          placeholder={t('advancedFirewall.field')}
          options={edge.ACL_FIELDS.map((f) => ({ value: f, label: t(`advancedFirewall.fields.${f}`) }))}
          onChange={(f: edge.AclField) => {
            if (!operator || !edge.FIELD_OPERATORS[f].includes(operator)) form.setFieldValue(['conditions', index, 'operator'], edge.FIELD_OPERATORS[f][0]);
          }}
          data-testid={`condition-${index}-field`}
        />
      </Form.Item>
      {named ? (
        <Form.Item name={[index, 'name']} rules={[{ required: true, message: t('advancedFirewall.needName') }]}>
          <Input style={{ width: 130 }} placeholder={t(field === 'header' ? 'advancedFirewall.headerName' : 'advancedFirewall.cookieName')} onChange={revalidate} />
        </Form.Item>
      ) : null}
      <Form.Item name={[index, 'operator']} rules={[{ required: true, message: t('validation.required') }]}>
        <Select
          style={{ width: 150 }}
          placeholder={t('advancedFirewall.operator')}
          options={operators.map((o) => ({ value: o, label: t(`advancedFirewall.operators.${o}`) }))}
          onChange={revalidate}
          data-testid={`condition-${index}-operator`}
        />
      </Form.Item>
      {isList(operator) ? (
        <Form.Item name={[index, 'values']} rules={[rule]} style={{ width: 260 }}>
          <Select mode="tags" style={{ width: 260 }} tokenSeparators={[',', ' ', '\n']} placeholder={t('advancedFirewall.listHint')} open={false} suffixIcon={null} />
        </Form.Item>
      ) : (
        <Form.Item name={[index, 'value']} rules={[rule]} style={{ width: 260 }}>
          <Input style={{ width: 260 }} placeholder={PLACEHOLDERS[field ?? 'uri']} data-testid={`condition-${index}-value`} />
        </Form.Item>
      )}
      {field === 'asn' ? (
        // The AS data's licence (DB-IP's IP to ASN Lite, CC BY 4.0) asks for this link where its results are used.
        <Typography.Text type="secondary" style={{ lineHeight: '32px' }}>
          {t('advancedFirewall.asnSource')}{' '}
          <Typography.Link href="https://db-ip.com" target="_blank" rel="noreferrer">
            IP Geolocation by DB-IP
          </Typography.Link>
        </Typography.Text>
      ) : null}
      {textMatch ? (
        <Form.Item name={[index, 'regex']} valuePropName="checked">
          <Checkbox onChange={revalidate}>{t('advancedFirewall.regex')}</Checkbox>
        </Form.Item>
      ) : null}
      {field === 'frequency' ? (
        <Form.Item name={[index, 'seconds']} rules={[{ required: true, message: t('validation.required') }]}>
          <InputNumber min={1} max={3600} addonAfter={t('advancedFirewall.seconds')} style={{ width: 150 }} />
        </Form.Item>
      ) : null}
      {removable ? <Button type="text" icon={<MinusCircleOutlined />} onClick={onRemove} aria-label={t('advancedFirewall.removeCondition')} /> : null}
    </div>
  );
}
