import { useMutation, useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { TEXT_FIELD_MAX } from '@edgekeep/contract/constants';
import { infraApi } from '../../api/infra';
import type { Site } from '../../api/infra-types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { AccountPicker } from './account-picker';

type Values = { name: string; userID: number; productID: number; tags?: string[]; expiredAt?: Dayjs | null };
export type SiteFormMode = { kind: 'create' } | { kind: 'rename' | 'tags'; site: Site };

const TAG_MAX = 64;

/** Create a site for a user from a product, rename one, or set its tags. */
export function SiteFormModal({ mode, onClose }: { mode: SiteFormMode; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const products = useQuery({ queryKey: ['metaProducts'], queryFn: infraApi.metaProducts, enabled: mode.kind === 'create' });
  const save = useMutation({
    mutationFn: (v: Values) => {
      if (mode.kind === 'rename') return infraApi.updateSite({ id: mode.site.id, name: v.name.trim() });
      if (mode.kind === 'tags') return infraApi.updateSite({ id: mode.site.id, tags: v.tags ?? [] });
      return infraApi.createSite({ name: v.name.trim(), userID: v.userID, productID: v.productID, tags: v.tags ?? [], expiredAt: v.expiredAt ? v.expiredAt.endOf('day').toISOString() : null });
    },
    onSuccess: () => {
      toast.success(t(mode.kind === 'create' ? 'infra.createSuccess' : mode.kind === 'tags' ? 'infra.updateTagsSuccess' : 'infra.updateSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['sites'] });
      onClose();
    },
  });
  const tagRule = {
    validator: (_: unknown, tags?: string[]) =>
      !tags || tags.every((tag) => tag.trim().length > 0 && tag.length <= TAG_MAX) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
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
          <Form.Item name="name" label={t('infra.name')} rules={[rules.required, { max: TEXT_FIELD_MAX, message: t('validation.wrongFormat') }]}>
            <Input />
          </Form.Item>
        ) : null}
        {mode.kind !== 'rename' ? (
          <Form.Item name="tags" label={t('clientSites.tags')} extra={t('clientSites.tagsHint')} rules={[tagRule]}>
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
