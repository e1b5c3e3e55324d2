import { Button, Form, InputNumber, Modal, Radio, Select, Space, Input } from 'antd';
import { edge } from '@edgekeep/contract';
import { useTranslation } from 'react-i18next';
import { sitesApi, type CacheRule, type CacheRuleItem } from '../../api/sites';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useLines } from './lines';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';

type Fields = { type: 'fileTypes' | 'url'; fileTypes: string[]; urls: string; seconds: number; mode: 'follow' | 'force' };

const GROUP_LABELS = { image: 'groupImage', page: 'groupPage', audioVideo: 'groupAudioVideo', file: 'groupFile' } as const;
const FILE_TYPE = /^[a-z0-9]{1,10}$/;
/** Spec §5: a URL prefix begins with http:// or https:// and ends with /. */
const URL_PREFIX = /^https?:\/\/[^\s/*?]+\/([^\s*?]*\/)?$/;

export function CacheRuleModal({ siteId, rule, onClose }: { siteId: number; rule?: CacheRuleItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const urls = useLines((line) => URL_PREFIX.test(line));
  const [form] = Form.useForm<Fields>();
  const type = Form.useWatch('type', form) ?? rule?.type ?? 'fileTypes';
  const save = useSiteMutation({
    fn: (r: CacheRule) => (rule ? sitesApi.updateCacheRule(siteId, { ...r, id: rule.id }) : sitesApi.createCacheRule(siteId, r)),
    success: rule ? 'updateSuccess' : 'createSuccess',
    refresh: [keys.settings(siteId)],
    done: onClose,
  });
  const submit = (v: Fields) =>
    save.mutate({ type: v.type, values: v.type === 'url' ? urls.split(v.urls) : v.fileTypes, seconds: v.seconds, mode: v.mode });
  const pick = (group: keyof typeof GROUP_LABELS) => {
    const current: string[] = form.getFieldValue('fileTypes') ?? [];
    form.setFieldValue('fileTypes', [...new Set([...current, ...edge.CACHE_FILE_TYPE_GROUPS[group]])]);
  };
  const fileTypesRule = {
    validator: (_: unknown, v: string[] = []) =>
      v.every((x) => FILE_TYPE.test(x)) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
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
          <Form.Item name="urls" label={t('cache.urls')} extra={t('cache.urlsHint')} rules={[rules.required, urls.rule]}>
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
