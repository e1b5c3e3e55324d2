import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { licenseCalls, licenseKeys, type OrderInput } from './queries';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';

type Row = Omit<OrderInput, 'orderedAt'> & { orderedAt: Dayjs };
type Client = { id: number; name: string };
const ORDERS_MAX = 500;
const TEXT_MAX = 256;

/** A client's order records, edited and saved as a whole (PUT replaces them). */
export function OrdersModal({ client, onClose }: { client?: Client; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ orders: Row[] }>();
  const key = licenseKeys.orders(client?.id);
  const orders = useQuery({ queryKey: key, queryFn: () => licenseCalls.orders(client!.id), enabled: !!client, staleTime: 0 });
  const licenses = useQuery({
    queryKey: licenseKeys.of(client?.id),
    queryFn: async () => {
      const query = { clientID: client!.id, pageSize: ORDERS_MAX };
      const [online, offline] = await Promise.all([licenseCalls.list(query), licenseCalls.offlines(query)]);
      return [...online.data, ...offline.data];
    },
    enabled: !!client,
  });
  useEffect(() => {
    if (!orders.data) return;
    form.setFieldsValue({ orders: orders.data.map((o) => ({ ...o, orderedAt: dayjs(o.orderedAt) })) });
  }, [orders.data, form]);
  const save = useMutation({
    mutationFn: (rows: Row[]) => licenseCalls.setOrders(client!.id, rows.map((r) => ({ ...r, orderedAt: r.orderedAt.toISOString() }))),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      toast.success(t('licenseMessage.set'));
      onClose();
    },
  });
  const textMax = { max: TEXT_MAX, message: t('validation.wrongFormat') };
  return (
    <Modal
      open={!!client}
      title={t('licenses.ordersTitle', { name: client?.name ?? '' })}
      width={1100}
      okText={t('common.save')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      loading={orders.isFetching}
      forceRender
    >
      <Form
        form={form}
        onFinish={(v) => save.mutate(v.orders ?? [])}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
        data-testid="orders-form"
      >
        <Form.List name="orders">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {fields.map((field) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item name={[field.name, 'orderNo']} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
                    <Input placeholder={t('licenses.orderNo')} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'licenseID']}>
                    <Select
                      allowClear
                      placeholder={t('licenses.orderLicense')}
                      style={{ width: 160 }}
                      options={(licenses.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'description']} rules={[textMax]}>
                    <Input placeholder={t('licenses.orderDescription')} style={{ width: 180 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'amount']} rules={[rules.required, { type: 'number', min: 0, message: t('validation.wrongFormat') }]}>
                    <InputNumber placeholder={t('licenses.orderAmount')} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'orderedAt']} rules={[rules.required]}>
                    <DatePicker placeholder={t('licenses.orderedAt')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'memo']} rules={[textMax]}>
                    <Input placeholder={t('licenses.orderMemo')} style={{ width: 140 }} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} aria-label={t('licenses.remove')} onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={fields.length >= ORDERS_MAX}
                onClick={() => add({ orderNo: '', description: '', memo: '', amount: 0, orderedAt: dayjs() })}
              >
                {t('licenses.addOrder')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
