import { PlusOutlined } from '@ant-design/icons';
import type { edge } from '@edgekeep/contract';
import { Button, Divider, Form, Input, InputNumber, Modal, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { ApiFailure } from '../../api/failure';
import { useSiteMutation } from '../sites/use-site-mutation';
import { aclKeys, wafAcl, type AclRule, type AclRuleInput } from './queries';
import { ConditionRow, toCondition, toForm, type ConditionForm } from './condition-row';

type Values = Omit<AclRuleInput, 'conditions'> & { conditions: ConditionForm[] };

const REDIRECT_URL = /^https?:\/\/[^\s"'<>\\]+$/;
/** The builder's action order. */
const ACTION_ORDER = ['deny', 'drop', 'dropBlacklist', 'allow', 'redirect301', 'redirect302'] as const satisfies readonly edge.AclRule['action'][];
const isRedirect = (a?: string) => a === 'redirect301' || a === 'redirect302';

/** The rule builder: name, priority, and/or, condition rows (field, operator, value), action. */
export function RuleModal({ siteId, moduleId, rule, nextPriority, onClose }: { siteId: number; moduleId: number; rule?: AclRule; nextPriority: number; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const action = Form.useWatch('action', form) ?? rule?.action;
  const save = useSiteMutation({
    fn: (body: AclRuleInput) => (rule ? wafAcl.updateRule(siteId, moduleId, { ...body, id: rule.id }) : wafAcl.createRule(siteId, moduleId, body)),
    success: rule ? 'updateSuccess' : 'createSuccess',
    refresh: [aclKeys.rules(siteId, moduleId), aclKeys.modules(siteId)],
    done: onClose,
  });
  /** The server names the refused condition (extra.condition); its message goes under that row. */
  const showServerProblem = (err: unknown) => {
    if (!(err instanceof ApiFailure) || err.code !== 101003) return;
    const extra = err.extra as { condition?: number; fields?: { field: string; message: string }[] } | undefined;
    const message = extra?.fields?.[0]?.message;
    if (!message) return;
    if (extra?.condition) form.setFields([{ name: ['conditions', extra.condition - 1, 'value'], errors: [message] }]);
    else if (extra?.fields?.[0]?.field === 'redirectURL') form.setFields([{ name: 'redirectURL', errors: [message] }]);
  };
  const initial: Values = rule
    ? { ...rule, conditions: rule.conditions.map(toForm) }
    : { name: '', priority: nextPriority, enabled: true, logic: 'and', action: 'deny', redirectURL: '', blockSeconds: 3600, conditions: [{ field: 'uri', operator: 'contains', value: '' }] };
  return (
    <Modal
      open
      width={920}
      title={t(rule ? 'advancedFirewall.editRule' : 'advancedFirewall.addRule')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'rule-save' } as Record<`data-${string}`, string>}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onFinish={(v) =>
          save.mutate(
            { ...v, name: v.name.trim(), redirectURL: isRedirect(v.action) ? (v.redirectURL ?? '').trim() : '', conditions: v.conditions.map(toCondition) },
            { onError: showServerProblem },
          )
        }
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="name" label={t('advancedFirewall.ruleName')} rules={[rules.required, { max: 256 }]}>
          <Input style={{ maxWidth: 360 }} data-testid="rule-name" />
        </Form.Item>
        <Form.Item name="priority" label={t('advancedFirewall.priority')} tooltip={t('advancedFirewall.priorityHint')} rules={[rules.required]}>
          <InputNumber min={1} max={100000} />
        </Form.Item>
        <Form.Item name="logic" label={t('advancedFirewall.logic')}>
          <Radio.Group
            options={[
              { value: 'and', label: t('advancedFirewall.logicAnd') },
              { value: 'or', label: t('advancedFirewall.logicOr') },
            ]}
          />
        </Form.Item>
        <Divider titlePlacement="start">{t('advancedFirewall.conditions')}</Divider>
        <Form.List name="conditions">
          {(items, { add, remove }) => (
            <>
              {items.map((item, i) => (
                <ConditionRow key={item.key} fieldKey={item.key} form={form} index={i} removable={items.length > 1} onRemove={() => remove(item.name)} />
              ))}
              {items.length < 20 ? (
                <div>
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ field: 'uri', operator: 'contains', value: '' })} data-testid="add-condition">
                    {t('advancedFirewall.addCondition')}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </Form.List>
        <Divider titlePlacement="start">{t('advancedFirewall.action')}</Divider>
        <Form.Item name="action" rules={[rules.required]}>
          <Select style={{ width: 260 }} options={ACTION_ORDER.map((a) => ({ value: a, label: t(`advancedFirewall.actions.${a}`) }))} data-testid="rule-action" />
        </Form.Item>
        {isRedirect(action) ? (
          <Form.Item
            name="redirectURL"
            label={t('advancedFirewall.redirectURL')}
            rules={[rules.required, { validator: (_, v?: string) => (!v || REDIRECT_URL.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) }]}
          >
            <Input placeholder="https://www.example.com/" style={{ maxWidth: 480 }} />
          </Form.Item>
        ) : null}
        {action === 'dropBlacklist' ? (
          <Form.Item name="blockSeconds" label={t('advancedFirewall.blockSeconds')} rules={[rules.required]}>
            <InputNumber min={1} max={604800} addonAfter={t('advancedFirewall.seconds')} />
          </Form.Item>
        ) : null}
        <Form.Item name="enabled" label={t('advancedFirewall.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
