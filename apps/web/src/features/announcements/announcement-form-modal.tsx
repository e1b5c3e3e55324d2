import { DatePicker, Form, Input, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { useSaveAnnouncement, type Announcement } from './queries';

type Values = { title: string; content?: string; window: [Dayjs, Dayjs] };

/** Writes or changes an announcement: a title, a text and the window in which the client's users see it. */
export function AnnouncementFormModal({ announcement, onClose }: { announcement?: Announcement; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const save = useSaveAnnouncement(announcement?.id);
  const submit = (v: Values) =>
    save.mutate(
      { title: v.title.trim(), content: v.content?.trim() ?? '', startTime: v.window[0].toISOString(), endTime: v.window[1].toISOString() },
      {
        onSuccess: () => {
          toast.success(t(announcement ? 'announcement.updated' : 'announcement.created'));
          onClose();
        },
      },
    );
  const initial: Partial<Values> = announcement
    ? { title: announcement.title, content: announcement.content, window: [dayjs(announcement.startTime), dayjs(announcement.endTime)] }
    : { window: [dayjs().startOf('minute'), dayjs().startOf('minute').add(7, 'day')] };
  const endAfterStart = { validator: async (_: unknown, v?: [Dayjs, Dayjs]) => { if (v && !v[1].isAfter(v[0])) throw new Error(t('announcement.endAfterStart')); } };
  return (
    <Modal
      open
      title={t(announcement ? 'announcement.edit' : 'announcement.add')}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      width={640}
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="title" label={t('announcement.titleLabel')} rules={[rules.required, { max: 256, message: t('validation.wrongFormat') }]}>
          <Input maxLength={256} />
        </Form.Item>
        <Form.Item name="window" label={t('announcement.window')} rules={[rules.required, endAfterStart]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={DATE_FORMATS.minute} allowClear={false} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="content" label={t('announcement.content')} rules={[{ max: 10_000, message: t('validation.wrongFormat') }]}>
          <Input.TextArea rows={6} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
