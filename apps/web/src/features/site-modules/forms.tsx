import { Checkbox, Form, Input, InputNumber, Modal, Select, Switch, Typography } from 'antd';
import { edge } from '@edgekeep/contract';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { modules, siteModuleKeys, useDefaultWafRules, type CorsInput, type CorsItem, type TokenAuthInput, type TokenAuthItem, type TokenAuthSaved, type WafInput, type WafItem } from './queries';
import { useModuleMutation } from './use-module-mutation';

const lines = (v?: string) => (v ?? '').split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

function FormModal<V extends object>(o: { title: string; initial: Partial<V>; pending: boolean; onSave: (v: V) => void; onClose: () => void; children: React.ReactNode }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  return (
    <Modal open width={640} title={o.title} onCancel={o.onClose} onOk={() => form.submit()} confirmLoading={o.pending}>
      <Form<V> form={form} layout="vertical" requiredMark={false} initialValues={o.initial} onFinish={o.onSave} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        {o.children}
      </Form>
    </Modal>
  );
}

type CorsForm = Omit<CorsInput, 'allowHeaders' | 'exposeHeaders'> & { allowHeaders?: string; exposeHeaders?: string };

/** Spec §5: the allowed origin is '*' or one https URL, not a list; max-age 1 to 86400 s. */
export function CorsModal({ siteId, item, onClose }: { siteId: number; item?: CorsItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useModuleMutation({
    fn: (v: CorsInput) => (item ? modules.updateCors(siteId, { ...v, id: item.id }) : modules.createCors(siteId, v)),
    success: item ? 'updateSuccess' : 'createSuccess',
    refresh: [siteModuleKeys.list(siteId, 'cors')],
    done: onClose,
  });
  const originRule = { validator: (_: unknown, v?: string) => (!v || edge.corsOrigin.safeParse(v.trim()).success ? Promise.resolve() : Promise.reject(new Error(t('siteModules.originRule')))) };
  const initial: Partial<CorsForm> = item
    ? { ...item, allowHeaders: item.allowHeaders.join(', '), exposeHeaders: item.exposeHeaders.join(', ') } as Partial<CorsForm>
    : { allowOrigin: '*', allowMethods: ['GET', 'POST'], maxAge: 86_400, allowCredentials: false };
  return (
    <FormModal<CorsForm>
      title={t(item ? 'sites.edit' : 'siteModules.add')}
      initial={initial}
      pending={save.isPending}
      onClose={onClose}
      onSave={(v) => save.mutate({ ...v, allowOrigin: v.allowOrigin.trim(), allowHeaders: lines(v.allowHeaders), exposeHeaders: lines(v.exposeHeaders) })}
    >
      <Form.Item name="name" label={t('siteModules.name')} rules={[rules.required]}>
        <Input />
      </Form.Item>
      <Form.Item name="allowOrigin" label={t('siteModules.allowOrigin')} rules={[rules.required, originRule]} extra={t('siteModules.originRule')}>
        <Input placeholder="https://app.example.com" data-testid="cors-origin" />
      </Form.Item>
      <Form.Item name="allowMethods" label={t('siteModules.allowMethods')} rules={[rules.required]}>
        <Checkbox.Group options={edge.CORS_METHODS.map((m) => ({ value: m, label: m }))} />
      </Form.Item>
      <Form.Item name="allowHeaders" label={t('siteModules.allowHeaders')}>
        <Input placeholder="Content-Type, Authorization" />
      </Form.Item>
      <Form.Item name="exposeHeaders" label={t('siteModules.exposeHeaders')}>
        <Input placeholder="X-Total" />
      </Form.Item>
      <Form.Item name="maxAge" label={t('siteModules.maxAge')} rules={[rules.required]}>
        <InputNumber min={edge.CORS_MAX_AGE_MIN} max={edge.CORS_MAX_AGE_MAX} addonAfter={t('siteModules.seconds')} data-testid="cors-max-age" />
      </Form.Item>
      <Form.Item name="allowCredentials" label={t('siteModules.allowCredentials')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}

/** A token-auth module; a key left empty on create is generated and shown once. */
export function TokenAuthModal({ siteId, item, onClose, onKey }: { siteId: number; item?: TokenAuthItem; onClose: () => void; onKey: (key: string) => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useModuleMutation({
    fn: (v: TokenAuthInput) => modules.saveTokenAuth(siteId, { ...v, id: item?.id, key: v.key?.trim() || undefined }),
    success: item ? 'updateSuccess' : 'createSuccess',
    refresh: [siteModuleKeys.list(siteId, 'tokenAuth')],
    done: (r: TokenAuthSaved) => {
      if (r.key) onKey(r.key);
      onClose();
    },
  });
  return (
    <FormModal<TokenAuthInput> title={t(item ? 'sites.edit' : 'siteModules.add')} initial={item ?? { scope: 'all', expiry: 3600 }} pending={save.isPending} onClose={onClose} onSave={(v) => save.mutate(v)}>
      <Form.Item name="name" label={t('siteModules.name')} rules={[rules.required]}>
        <Input />
      </Form.Item>
      <Form.Item name="scope" label={t('siteModules.scope')}>
        <Select options={[{ value: 'all', label: t('siteModules.scopeAll') }, { value: 'paths', label: t('siteModules.scopePaths') }]} />
      </Form.Item>
      <Form.Item name="expiry" label={t('siteModules.expiry')} rules={[rules.required]}>
        <InputNumber min={60} max={31_536_000} addonAfter={t('siteModules.seconds')} />
      </Form.Item>
      <Form.Item name="key" label={t('siteModules.customKey')} extra={t(item ? 'siteModules.keyKeep' : 'siteModules.keyGenerate')} rules={[{ min: 16, message: t('validation.wrongFormat') }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormModal>
  );
}

type WafForm = Omit<WafInput, 'excludedRules'> & { excludedRules?: string };

/** A managed-rule-set module: block or detect, paranoia 1 to 4, rule ids to exclude. */
export function WafModal({ siteId, item, onClose }: { siteId: number; item?: WafItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const groups = useDefaultWafRules();
  const save = useModuleMutation({
    fn: (v: WafInput) => modules.saveWaf(siteId, { ...v, id: item?.id }),
    success: item ? 'updateSuccess' : 'createSuccess',
    refresh: [siteModuleKeys.list(siteId, 'waf')],
    done: onClose,
  });
  const idsRule = { validator: (_: unknown, v?: string) => (lines(v).every((x) => /^9\d{5}$/.test(x)) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) };
  return (
    <FormModal<WafForm>
      title={t(item ? 'sites.edit' : 'siteModules.add')}
      initial={item ? { ...item, excludedRules: item.excludedRules.join('\n') } : { mode: 'block', paranoia: 1 }}
      pending={save.isPending}
      onClose={onClose}
      onSave={(v) => save.mutate({ ...v, excludedRules: lines(v.excludedRules).map(Number) })}
    >
      <Form.Item name="name" label={t('siteModules.name')} rules={[rules.required]}>
        <Input />
      </Form.Item>
      <Form.Item name="mode" label={t('siteModules.wafMode')}>
        <Select options={[{ value: 'block', label: t('siteModules.wafBlock') }, { value: 'detect', label: t('siteModules.wafDetect') }]} />
      </Form.Item>
      <Form.Item name="paranoia" label={t('siteModules.paranoia')}>
        <Select options={[1, 2, 3, 4].map((n) => ({ value: n, label: String(n) }))} />
      </Form.Item>
      <Form.Item name="excludedRules" label={t('siteModules.excludedRules')} rules={[idsRule]} extra={t('siteModules.excludedHint')}>
        <Input.TextArea rows={3} placeholder={'942100\n920350'} />
      </Form.Item>
      <Typography.Text type="secondary">
        {t('siteModules.ruleGroups')}: {(groups.data ?? []).map((g) => `${g.id} ${g.name}`).join(' · ')}
      </Typography.Text>
    </FormModal>
  );
}
