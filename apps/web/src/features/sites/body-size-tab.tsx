import { Form, InputNumber, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { useSiteMutation } from './use-site-mutation';
import { SaveButton } from './save-button';
import { siteKeys, siteOptionCalls, useSiteSettings } from './queries';

type Fields = { mode: 'zone' | 'custom'; size: number };

/** The largest request body a site takes, in MB; 0 turns the check off (spec §5); or the zone's setting. */
export function BodySizeTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const settings = useSiteSettings(siteId);
  const save = useSiteMutation({ fn: (size: number | null) => siteOptionCalls.bodySize(siteId, size), success: 'updateSuccess', refresh: [siteKeys.settings(siteId)] });
  const [form] = Form.useForm<Fields>();
  const mode = Form.useWatch('mode', form);
  if (!settings.data) return null;
  const current = settings.data.clientMaxBodySize;
  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={!editable}
      initialValues={{ mode: current === null ? 'zone' : 'custom', size: current ?? 100 }}
      onFinish={(v) => save.mutate(v.mode === 'zone' ? null : v.size)}
      onFinishFailed={() => toast.error(t('validation.checkForm'))}
      style={{ maxWidth: 480 }}
    >
      <Form.Item name="mode" label={t('siteOptions.bodySize')}>
        <Radio.Group
          options={[
            { value: 'zone', label: t('siteOptions.bodySizeZone') },
            { value: 'custom', label: t('siteOptions.bodySizeCustom') },
          ]}
        />
      </Form.Item>
      {mode === 'custom' ? (
        <Form.Item name="size" extra={t('siteOptions.bodySizeHint')} rules={[rules.required]}>
          <InputNumber min={0} max={102_400} precision={0} addonAfter="MB" style={{ width: 220 }} data-testid="body-size" />
        </Form.Item>
      ) : null}
      <Space direction="vertical">
        {current === 0 ? <Typography.Text type="secondary">{t('siteOptions.bodySizeOff')}</Typography.Text> : null}
        <SaveButton editable={editable} loading={save.isPending} />
      </Space>
    </Form>
  );
}
