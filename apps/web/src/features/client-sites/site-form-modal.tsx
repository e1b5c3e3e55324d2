import { DatePicker, Form, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { createSiteBody } from '@edgekeep/contract/schemas/sites';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { useMetaProducts } from '../products/queries';
import { AccountPicker } from './account-picker';
import { clientSites, useSitesChange, type Site } from './queries';

type Values = { name: string; userID: number; productID: number; tags?: string[]; expiredAt?: Dayjs | null };
export type SiteFormMode = { kind: 'create' } | { kind: 'rename' | 'tags'; site: Site };

/** Create a site for a user from a product, rename one, or set its tags. */
export function SiteFormModal({ mode, onClose }: { mode: SiteFormMode; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const products = useMetaProducts(mode.kind === 'create');
  const save = useSitesChange(
    (v: Values): Promise<unknown> => {
      if (mode.kind === 'rename') return clientSites.update({ id: mode.site.id, name: v.name.trim() });
      if (mode.kind === 'tags') return clientSites.update({ id: mode.site.id, tags: v.tags ?? [] });
      return clientSites.create({ name: v.name.trim(), userID: v.userID, productID: v.productID, tags: v.tags ?? [], expiredAt: v.expiredAt ? v.expiredAt.endOf('day').toISOString() : null });
    },
    () => {
      toast.success(t(mode.kind === 'create' ? 'infra.createSuccess' : mode.kind === 'tags' ? 'infra.updateTagsSuccess' : 'infra.updateSuccess'));
      onClose();
    },
  );
  const title = { create: 'infra.create', rename: 'clientSites.rename', tags: 'clientSites.editTags' } as const;
  const initial = mode.kind === 'create' ? undefined : { name: mode.site.name, tags: mode.site.tags };
  return (
    <Modal open title={t(title[mode.kind])} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        {mode.kind === 'create' ? (
          <>
            <Form.Item name="userID" label={t('infra.user')} rules={[rules.required]}>
              <AccountPicker auth="user" placeholder={t('clientSites.searchUser')} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="productID" label={t('infra.product')} rules={[rules.required]}>
              <Select options={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))} loading={products.isLoading} />
            </Form.Item>
          </>
        ) : null}
        {mode.kind !== 'tags' ? (
          <Form.Item name="name" label={t('infra.name')} rules={[rules.required, zodRule(createSiteBody.shape.name, t('validation.wrongFormat'))]}>
            <Input />
          </Form.Item>
        ) : null}
        {mode.kind !== 'rename' ? (
          <Form.Item name="tags" label={t('clientSites.tags')} extra={t('clientSites.tagsHint')} rules={[zodRule(createSiteBody.shape.tags, t('validation.wrongFormat'))]}>
            <Select mode="tags" open={false} tokenSeparators={[',']} />
          </Form.Item>
        ) : null}
        {mode.kind === 'create' ? (
          <Form.Item name="expiredAt" label={t('infra.expiredAt')}>
            <DatePicker format={DATE_FORMATS.date} style={{ width: '100%' }} placeholder={t('infra.never')} />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
