import { cidr, ITEM_LIST_MAX } from '@edgekeep/contract/schemas/system-settings';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRestrictCidrs, useSaveRestrictCidrs } from './queries';
import { SettingForm } from './setting-form';

const linesOf = (text = '') => text.split(/[\n,]/).map((l) => l.trim()).filter(Boolean);

/** Restricted subnets: one CIDR block per line, each checked with the contract's rule. */
export default function RestrictCidrsTab() {
  const { t } = useTranslation();
  const setting = useRestrictCidrs();
  const save = useSaveRestrictCidrs();
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
    <SettingForm<{ cidrs: string[] }, { cidrs?: string }>
      title={t('settingTabs.restrictGroupCIDRs')}
      testId="restrict-cidrs-setting"
      stored={setting.data?.data}
      loading={setting.isLoading}
      toForm={(s) => ({ cidrs: s.cidrs.join('\n') })}
      saving={save.isPending}
      onSave={(v) => save.mutateAsync({ cidrs: linesOf(v.cidrs) })}
    >
      <Form.Item name="cidrs" label={t('settingTabs.cidrsLabel')} extra={t('settingTabs.cidrsHint')} rules={[valid]}>
        <Input.TextArea rows={8} placeholder={'10.0.0.0/8\n2001:db8::/32'} />
      </Form.Item>
    </SettingForm>
  );
}
