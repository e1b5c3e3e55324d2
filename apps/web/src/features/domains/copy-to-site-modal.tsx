import { useQuery } from '@tanstack/react-query';
import { Form, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { useSiteMutation } from '../sites/use-site-mutation';
import { siteCalls, siteKeys } from '../sites/queries';
import { domainCalls } from './queries';

type Values = { targetSiteID: number; enabled: boolean };

/** Copies the chosen domains with their origins to another of the user's sites. */
export function CopyToSiteModal({ siteId, ids, onClose }: { siteId: number; ids: number[]; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const sites = useQuery({ queryKey: siteKeys.metaSites, queryFn: siteCalls.metaSites });
  const copy = useSiteMutation({
    fn: (v: Values) => domainCalls.copyToSite(siteId, { ids, ...v }),
    success: 'createSuccess',
    refresh: [siteKeys.sites, siteKeys.everySiteDomains],
    done: onClose,
  });
  return (
    <Modal open title={t('domainSettings.copyToSite')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={copy.isPending}>
      <Form form={form} layout="vertical" initialValues={{ enabled: false }} onFinish={(v) => copy.mutate(v)}>
        <Form.Item name="targetSiteID" label={t('domainSettings.targetSite')} rules={[rules.required]}>
          <Select
            showSearch
            optionFilterProp="label"
            aria-label="target site"
            options={(sites.data ?? []).filter((s) => s.id !== siteId).map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('domainSettings.copyEnabled')} valuePropName="checked" extra={t('domainSettings.copyEnabledHint')}>
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
