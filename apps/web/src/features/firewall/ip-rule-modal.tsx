import { edge } from '@edgekeep/contract';
import { ipRuleBody, updateIpRuleBody } from '@edgekeep/contract/schemas/firewall';
import { ITEM_LIST_MAX } from '@edgekeep/contract/constants';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Codes } from '@edgekeep/contract/errors';
import { ApiFailure } from '../../api/failure';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { ipLists, type IpList, type IpRule } from './queries';
import { useFirewallMutation } from './use-firewall-mutation';

type Method = (typeof METHODS)[number];
type Values = { ips?: string; ip?: string; memo: string; url: string; methodValues: Method[]; port: number };
const METHODS = edge.HTTP_METHODS;

/** The problem of a batch of addresses, one per line with no spaces (spec §5), checked before the call. */
export function linesProblem(text: string): 'required' | 'wrongFormat' | 'duplicate' | 'tooMany' | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return 'required';
  if (lines.length > ITEM_LIST_MAX) return 'tooMany';
  if (lines.some((l) => /\s/.test(l) || !edge.ipEntry.safeParse(l).success)) return 'wrongFormat';
  if (new Set(lines).size !== lines.length) return 'duplicate';
  return undefined;
}

/** Add entries in batch (one address per line) or change one entry. */
export function IpRuleModal({ siteId, list, rule, onClose }: { siteId: number; list: IpList; rule?: IpRule; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const save = useFirewallMutation({
    siteId,
    list,
    fn: async ({ ips, ip, ...rest }: Values): Promise<unknown> =>
      rule ? ipLists.update(siteId, list, { ...rest, id: rule.id, ip: ip!.trim() }) : ipLists.add(siteId, list, { ...rest, ips: ips! }),
    success: rule ? 'updateSuccess' : 'createSuccess',
    done: onClose,
  });
  const messages = {
    required: t('validation.required'),
    wrongFormat: t('validation.wrongFormat'),
    duplicate: t('l4Ports.duplicate'),
    tooMany: t('firewall.tooMany', { max: ITEM_LIST_MAX }),
  };
  /** Besides the shared error modal, the field names the addresses the list already holds. */
  const markDuplicates = (err: unknown) => {
    if (!(err instanceof ApiFailure)) return;
    const taken = err.code === Codes.Duplicated ? [''] : err.errors.filter((e) => e.code === Codes.Duplicated).flatMap((e) => e.targets ?? []);
    if (!taken.length) return;
    const text = taken[0] ? `${messages.duplicate} ${taken.join(', ')}` : messages.duplicate;
    form.setFields([{ name: rule ? 'ip' : 'ips', errors: [text] }]);
  };
  const batchRule = {
    validator: (_: unknown, v?: string) => {
      const problem = linesProblem(v ?? '');
      return problem ? Promise.reject(new Error(messages[problem])) : Promise.resolve();
    },
  };
  return (
    <Modal open title={t(rule ? 'firewall.editEntry' : 'firewall.addEntries')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending} width={600}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={rule ?? { memo: '', url: '', methodValues: [], port: 0 }}
        onFinish={(v) =>
          save.mutate({ ...v, url: v.url?.trim() ?? '', memo: v.memo ?? '', port: v.port ?? 0, methodValues: v.methodValues ?? [] }, { onError: markDuplicates })
        }
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        {rule ? (
          <Form.Item name="ip" label={t('firewall.ip')} rules={[rules.required, zodRule(updateIpRuleBody.shape.ip, messages.wrongFormat)]}>
            <Input />
          </Form.Item>
        ) : (
          <Form.Item name="ips" label={t('firewall.ipsLines')} extra={t(list === 'blacklist' ? 'firewall.ipsHintBlack' : 'firewall.ipsHint')} rules={[batchRule]}>
            <Input.TextArea rows={6} style={{ fontFamily: 'monospace' }} data-testid="ips-input" />
          </Form.Item>
        )}
        <Form.Item name="url" label={t('firewall.url')} extra={t('firewall.urlHint')} rules={[zodRule(ipRuleBody.shape.url, messages.wrongFormat)]}>
          <Input placeholder="/admin" />
        </Form.Item>
        <Form.Item name="methodValues" label={t('firewall.methods')} extra={t('firewall.anyWhenEmpty')}>
          <Select mode="multiple" allowClear options={METHODS.map((m) => ({ value: m, label: m }))} />
        </Form.Item>
        <Form.Item name="port" label={t('firewall.port')} extra={t('firewall.anyWhenZero')}>
          <InputNumber min={0} max={65535} precision={0} />
        </Form.Item>
        <Form.Item name="memo" label={t('advancedFirewall.memo')}>
          <Input maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
