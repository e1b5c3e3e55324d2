import { Space } from 'antd';
import { useCan } from '../../app/use-self';
import { BotSettingCard } from './bot-setting-card';
import { PreferencesCard } from './preferences-card';

/** The user's notification setting: what it is told of and how, and its chat-bot channel. */
export default function NotifySettingPage() {
  const editable = useCan()('notify.edit');
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PreferencesCard tier="user" editable={editable} />
      <BotSettingCard tier="user" editable={editable} />
    </Space>
  );
}
