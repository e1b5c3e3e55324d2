import { EXPORT_TYPES, LOG_EXPORT_RESET_HOUR_UTC } from '@edgekeep/contract/schemas/logs';
import { Alert, Button, Form, Select } from 'antd';
import dayjs from 'dayjs';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { initialLogValues, LogFilterFields, toLogFilter, type LogFilterValues } from '../logs/log-filter-fields';
import type { AnalyticsTier } from '../statistics/queries';
import { useExportMutations } from './queries';

type ExportType = (typeof EXPORT_TYPES)[number];
export const TYPE_KEYS: Record<ExportType, ParseKeys> = { access: 'logExport.type.access', waf: 'logExport.type.waf', audit: 'logExport.type.audit' };

/** The daily reset of the export count, in the browser's time and in UTC. */
const resetTimes = () => {
  const reset = dayjs.utc().startOf('day').hour(LOG_EXPORT_RESET_HOUR_UTC);
  return { local: reset.local().format('HH:mm'), utc: reset.format('HH:mm') };
};

/** Apply for an export: its type, a window of at most a day, and (for access and WAF lines) what the lines must match. */
export function ApplyForm({ tier }: { tier: AnalyticsTier }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LogFilterValues & { type: ExportType }>();
  const type = Form.useWatch('type', form) ?? 'access';
  const { apply } = useExportMutations(tier);
  const submit = (v: LogFilterValues & { type: ExportType }) => {
    const filter = toLogFilter(v);
    const body = v.type === 'audit' ? { type: v.type, startTime: filter.startTime, endTime: filter.endTime } : { ...filter, type: v.type };
    apply.mutate(body, { onSuccess: () => toast.success(t('logExport.applied')) });
  };
  return (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('logExport.resetNote', resetTimes())} data-testid="export-reset-note" />
      <Form form={form} layout="inline" initialValues={{ ...initialLogValues(), type: 'access' }} onFinish={submit} style={{ rowGap: 8 }} data-testid="export-apply">
        <Form.Item name="type" label={t('logExport.column.type')}>
          <Select style={{ width: 140 }} options={EXPORT_TYPES.map((v) => ({ value: v, label: t(TYPE_KEYS[v]) }))} data-testid="export-type" />
        </Form.Item>
        <LogFilterFields tier={tier} scopeOnly={type === 'audit'} />
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={apply.isPending} data-testid="export-submit">
            {t('logExport.submit')}
          </Button>
        </Form.Item>
      </Form>
    </>
  );
}
