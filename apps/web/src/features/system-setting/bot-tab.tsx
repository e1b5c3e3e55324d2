import { Space } from 'antd';
import { useCan } from '../../app/use-self';
import { BotSettingCard } from '../notify-setting/bot-setting-card';
import { PreferencesCard } from '../notify-setting/preferences-card';

/** The client account's own chat-bot channel and its notice choices. */
export default function BotTab() {
  const editable = useCan()('system.edit');
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <BotSettingCard tier="client" editable={editable} />
      <PreferencesCard tier="client" editable={editable} />
    </Space>
  );
}
