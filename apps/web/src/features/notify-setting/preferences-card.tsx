import { NOTIFY_EVENTS, type NotifyEvent } from '@edgekeep/contract/schemas/notifications';
import type { Tier } from '@edgekeep/contract/tiers';
import { Button, Card, Checkbox, Form, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { usePreferences, useSavePreferences } from './queries';

type Values = { email: boolean; bot: boolean; events: NotifyEvent[] };

const EVENT_LABELS = {
  'node.offline': 'notify.events.nodeOffline',
  'node.online': 'notify.events.nodeOnline',
  'monitor.failure': 'notify.events.monitorFailure',
  'certificate.expiring': 'notify.events.certificateExpiring',
  'certificate.failed': 'notify.events.certificateFailed',
  'traffic.warning': 'notify.events.trafficWarning',
  'traffic.limited': 'notify.events.trafficLimited',
  'login.newAddress': 'notify.events.loginNewAddress',
} as const satisfies Record<NotifyEvent, string>;

/** Which channels the account wants its notices on, and for which events. */
export function PreferencesCard({ tier, editable }: { tier: Tier; editable: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const prefs = usePreferences(tier);
  const save = useSavePreferences(tier);
  const p = prefs.data?.data;
  useEffect(() => {
    if (p) form.setFieldsValue({ email: p.email, bot: p.bot, events: p.events });
  }, [p, form]);
  const options = NOTIFY_EVENTS.map((e) => ({ value: e, label: t(EVENT_LABELS[e]) }));
  return (
    <Card title={t('notify.preferencesTitle')} loading={prefs.isLoading} data-testid="notify-preferences">
      <Form<Values> form={form} layout="vertical" disabled={!editable} onFinish={(v) => save.mutate(v, { onSuccess: () => toast.success(t('notify.saved')) })}>
        <Form.Item name="email" label={t('notify.byEmail')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="bot" label={t('notify.byBot')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="events" label={t('notify.eventsLabel')}>
          <Checkbox.Group options={options} style={{ display: 'grid', gap: 8 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
