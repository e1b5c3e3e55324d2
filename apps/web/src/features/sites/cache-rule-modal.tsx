import { Button, Form, InputNumber, Modal, Radio, Select, Space, Input } from 'antd';
import { edge } from '@edgekeep/contract';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { useLines } from './lines';
import { useSiteMutation } from './use-site-mutation';
import { siteKeys, siteOptionCalls, type CacheRule, type CacheRuleItem } from './queries';

type Fields = { type: 'fileTypes' | 'url'; fileTypes: string[]; urls: string; seconds: number; mode: 'follow' | 'force' };

const GROUP_LABELS = { image: 'groupImage', page: 'groupPage', audioVideo: 'groupAudioVideo', file: 'groupFile' } as const;
/** The contract's rules for the values of each kind of rule: file types, or URL prefixes (spec §5). */
const [fileTypeValues, urlValues] = edge.cacheRule.options.map((o) => o.shape.values);

export function CacheRuleModal({ siteId, rule, onClose }: { siteId: number; rule?: CacheRuleItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const urls = useLines();
  const [form] = Form.useForm<Fields>();
  const type = Form.useWatch('type', form) ?? rule?.type ?? 'fileTypes';
  const save = useSiteMutation({
    fn: (r: CacheRule) => siteOptionCalls.saveCacheRule(siteId, r, rule?.id),
    success: rule ? 'updateSuccess' : 'createSuccess',
    refresh: [siteKeys.settings(siteId)],
    done: onClose,
  });
  const submit = (v: Fields) =>
    save.mutate({ type: v.type, values: v.type === 'url' ? urls.split(v.urls) : v.fileTypes, seconds: v.seconds, mode: v.mode });
  const pick = (group: keyof typeof GROUP_LABELS) => {
    const current: string[] = form.getFieldValue('fileTypes') ?? [];
    form.setFieldValue('fileTypes', [...new Set([...current, ...edge.CACHE_FILE_TYPE_GROUPS[group]])]);
  };
  const fileTypesRule = zodRule(fileTypeValues, t('validation.wrongFormat'));
  const urlsRule = zodRule({ safeParse: (v) => urlValues.safeParse(urls.split(String(v))) }, t('validation.wrongFormat'));
  const initial: Partial<Fields> = rule
    ? { type: rule.type, seconds: rule.seconds, mode: rule.mode, fileTypes: rule.type === 'fileTypes' ? rule.values : [], urls: rule.type === 'url' ? rule.values.join('\n') : '' }
    : { type: 'fileTypes', seconds: 3600, mode: 'follow', fileTypes: [] };
  return (
    <Modal open width={640} title={t(rule ? 'cache.editRule' : 'cache.addRule')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<Fields> form={form} layout="vertical" requiredMark={false} initialValues={initial} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="type" label={t('cache.type')}>
          <Radio.Group
            options={[
              { value: 'fileTypes', label: t('cache.typeFileTypes') },
              { value: 'url', label: t('cache.typeUrl') },
            ]}
          />
        </Form.Item>
        {type === 'fileTypes' ? (
          <>
            <Form.Item label={t('cache.quickPicks')}>
              <Space wrap>
                {(Object.keys(GROUP_LABELS) as (keyof typeof GROUP_LABELS)[]).map((g) => (
                  <Button key={g} size="small" onClick={() => pick(g)}>
                    {t(`cache.${GROUP_LABELS[g]}`)}
                  </Button>
                ))}
              </Space>
            </Form.Item>
            <Form.Item name="fileTypes" label={t('cache.fileTypes')} rules={[rules.required, fileTypesRule]}>
              <Select mode="tags" open={false} suffixIcon={null} data-testid="cache-file-types" />
            </Form.Item>
          </>
        ) : (
          <Form.Item name="urls" label={t('cache.urls')} extra={t('cache.urlsHint')} rules={[rules.required, urlsRule]}>
            <Input.TextArea rows={4} placeholder="https://www.example.com/static/" />
          </Form.Item>
        )}
        <Form.Item name="seconds" label={t('cache.seconds')} extra={t('cache.secondsHint')} rules={[rules.required]}>
          <InputNumber min={0} max={31_536_000} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="mode" label={t('cache.mode')}>
          <Radio.Group
            options={[
              { value: 'follow', label: t('cache.modeFollow') },
              { value: 'force', label: t('cache.modeForce') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
