import { cidr, ITEM_LIST_MAX } from '@edgekeep/contract/schemas/system-settings';
import { Button, Card, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useRestrictCidrs, useSaveRestrictCidrs } from './queries';

const linesOf = (text = '') => text.split(/[\n,]/).map((l) => l.trim()).filter(Boolean);

/** Restricted subnets: one CIDR block per line, each checked with the contract's rule. */
export default function RestrictCidrsTab() {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const [form] = Form.useForm<{ cidrs: string }>();
  const setting = useRestrictCidrs();
  const save = useSaveRestrictCidrs();
  const s = setting.data?.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ cidrs: s.cidrs.join('\n') });
  }, [s, form]);
  const valid = {
    validator: (_: unknown, text?: string) => {
      const lines = linesOf(text);
      const bad = lines.find((l) => !cidr.safeParse(l).success);
      if (bad) return Promise.reject(new Error(`${t('settingTabs.cidrFormat')}: ${bad}`));
      if (new Set(lines.map((l) => l.toLowerCase())).size !== lines.length) return Promise.reject(new Error(t('settingTabs.duplicate')));
      if (lines.length > ITEM_LIST_MAX) return Promise.reject(new Error(t('validation.wrongFormat')));
      return Promise.resolve();
    },
  };
  return (
    <Card title={t('settingTabs.restrictGroupCIDRs')} loading={setting.isLoading} data-testid="restrict-cidrs-setting">
      <Form form={form} layout="vertical" disabled={!editable} onFinish={(v) => save.mutate({ cidrs: linesOf(v.cidrs) }, { onSuccess: () => toast.success(t('settingTabs.saved')) })} onFinishFailed={() => toast.error(t('validation.checkForm'))} style={{ maxWidth: 560 }}>
        <Form.Item name="cidrs" label={t('settingTabs.cidrsLabel')} extra={t('settingTabs.cidrsHint')} rules={[valid]}>
          <Input.TextArea rows={8} placeholder={'10.0.0.0/8\n2001:db8::/32'} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
