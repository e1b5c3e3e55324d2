import { App, DatePicker, Form, InputNumber, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { useMetaProducts } from '../products/queries';
import { AccountPicker } from './account-picker';
import { clientSites, useSitesChange, type Site, type SiteLimitations } from './queries';

export type SiteActionKind = 'assignUser' | 'removeUsers' | 'changeProduct' | 'limitations' | 'expired';
/** `site` is there when the action is on one site, to start from its values. */
export type SiteAction = { kind: SiteActionKind; ids: number[]; site?: Site };
type Values = { userID?: number; userIDs?: number[]; productID?: number; expiredAt?: Dayjs | null } & { [K in keyof SiteLimitations]?: number | null };

const LIMITS = ['domainLimit', 'bandwidth', 'connections'] as const;

/** The site actions that need input, on one site or a batch: hand over, change product, limitations, expiry. */
export function SiteActionModal({ action, onClose }: { action: SiteAction; onClose: () => void }) {
  const { t } = useTranslation();
  const hints: Partial<Record<(typeof LIMITS)[number], string>> = { bandwidth: t('siteActions.bandwidthHint'), connections: t('siteActions.connectionsHint') };
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const { modal } = App.useApp();
  const { ids, site: single } = action;
  const products = useMetaProducts(action.kind === 'changeProduct');
  const save = useSitesChange(
    (v: Values): Promise<unknown> => {
      if (action.kind === 'assignUser') return clientSites.assignUser(ids, v.userID!);
      if (action.kind === 'removeUsers') return clientSites.removeUsers(ids, v.userIDs!);
      if (action.kind === 'changeProduct') return clientSites.changeProduct(ids, v.productID!);
      if (action.kind === 'expired') return clientSites.expired(ids, v.expiredAt ? v.expiredAt.endOf('day').toISOString() : null);
      return clientSites.limitations(ids, Object.fromEntries(LIMITS.map((k) => [k, v[k] ?? null])));
    },
    () => {
      toast.success(t('infra.updateSuccess'));
      onClose();
    },
  );
  const confirmRemove = (v: Values) =>
    modal.confirm({
      title: t('siteActions.removeUsers'),
      content: t('siteActions.removeUsersConfirm', { count: v.userIDs?.length ?? 0, name: single ? single.name : t('siteActions.selected', { count: ids.length }) }),
      okText: t('common.confirm'),
      cancelText: t('infra.cancel'),
      onOk: () => save.mutateAsync(v),
    });
  const initial: Values = {
    ...(single?.limitations ?? {}),
    expiredAt: single?.expiredAt ? dayjs(single.expiredAt) : null,
    productID: single?.productID,
  };
  return (
    <Modal
      open
      title={`${t(`siteActions.${action.kind}`)} · ${single ? single.name : t('siteActions.selected', { count: ids.length })}`}
      okText={t('common.submit')}
      cancelText={t('infra.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={(v) => (action.kind === 'removeUsers' ? confirmRemove(v) : save.mutate(v))} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        {action.kind === 'assignUser' ? (
          <Form.Item name="userID" label={t('infra.user')} rules={[rules.required]}>
            <AccountPicker auth="user" placeholder={t('clientSites.searchUser')} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        {action.kind === 'removeUsers' ? (
          <Form.Item name="userIDs" label={t('infra.user')} rules={[rules.required]} extra={t('siteActions.removeUsersHint')}>
            <AccountPicker auth="user" multiple placeholder={t('clientSites.searchUser')} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        {action.kind === 'changeProduct' ? (
          <Form.Item name="productID" label={t('infra.product')} rules={[rules.required]} extra={t('siteActions.changeProductHint')}>
            <Select options={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))} loading={products.isLoading} />
          </Form.Item>
        ) : null}
        {action.kind === 'expired' ? (
          <Form.Item name="expiredAt" label={t('infra.expiredAt')} extra={t('siteActions.expiredHint')}>
            <DatePicker format={DATE_FORMATS.date} style={{ width: '100%' }} placeholder={t('infra.never')} />
          </Form.Item>
        ) : null}
        {action.kind === 'limitations'
          ? LIMITS.map((k) => (
              <Form.Item key={k} name={k} label={t(`siteActions.${k}`)} extra={hints[k]}>
                <InputNumber min={0} precision={0} style={{ width: '100%' }} placeholder={t('siteActions.fromProduct')} />
              </Form.Item>
            ))
          : null}
      </Form>
    </Modal>
  );
}
