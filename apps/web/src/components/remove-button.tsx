import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/** A list row's Remove button: it names what goes and asks before anything is removed. */
export function RemoveButton({ name, description, onConfirm }: { name: string; description?: string; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Popconfirm title={t('infra.removeConfirm', { name })} description={description} onConfirm={onConfirm} okText={t('common.confirm')} cancelText={t('infra.cancel')}>
      <Button size="small" danger>
        {t('infra.remove')}
      </Button>
    </Popconfirm>
  );
}
