import { Alert, Checkbox, Form, InputNumber, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { useSiteMutation } from './use-site-mutation';
import { SaveButton } from './save-button';
import { siteKeys, siteOptionCalls, useSiteSettings, type Hsts } from './queries';

/** HSTS on HTTPS answers; spec §5: it warns while no domain of the site serves HTTPS. */
export function HstsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const settings = useSiteSettings(siteId);
  const save = useSiteMutation({
    fn: (body: Hsts) => siteOptionCalls.hsts(siteId, body),
    success: 'updateSuccess',
    refresh: [siteKeys.settings(siteId)],
    done: (r) => {
      if (r.warning) toast.info(t('siteOptions.hstsWarning'));
    },
  });
  const [form] = Form.useForm<Hsts>();
  const enabled = Form.useWatch('enabled', form);
  if (!settings.data) return null;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {!settings.data.httpsEnabled ? <Alert type="warning" showIcon message={t('siteOptions.hstsWarning')} data-testid="hsts-warning" /> : null}
      <Form<Hsts>
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={!editable}
        initialValues={settings.data.hsts}
        onFinish={(v) => save.mutate(v)}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
        style={{ maxWidth: 480 }}
      >
        <Form.Item name="enabled" label={t('siteOptions.hsts')} valuePropName="checked">
          <Switch data-testid="hsts-enabled" />
        </Form.Item>
        <Form.Item name="maxAge" label={t('siteOptions.maxAge')} extra={t('siteOptions.maxAgeHint')} rules={[rules.required]}>
          <InputNumber min={0} max={63_072_000} precision={0} addonAfter={t('siteOptions.seconds')} style={{ width: 260 }} disabled={!enabled} />
        </Form.Item>
        <Form.Item name="includeSubDomains" valuePropName="checked">
          <Checkbox disabled={!enabled}>includeSubDomains</Checkbox>
        </Form.Item>
        <Form.Item name="preload" valuePropName="checked">
          <Checkbox disabled={!enabled}>preload</Checkbox>
        </Form.Item>
        <SaveButton editable={editable} loading={save.isPending} />
      </Form>
    </Space>
  );
}
