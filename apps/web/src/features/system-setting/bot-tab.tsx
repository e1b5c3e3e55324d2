import { Space } from 'antd';
import { useCan } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { BotSettingCard } from '../notify-setting/bot-setting-card';
import { PreferencesCard } from '../notify-setting/preferences-card';

/**
 * The signed-in client's own chat-bot channel and its notice choices (a system setting tab), and the admin's
 * (its notification setting screen: admins have no notify key, so every admin sets its own).
 */
export default function BotTab() {
  const tier = useTier() === 'admin' ? 'admin' : 'client';
  const can = useCan();
  const editable = tier === 'admin' || can('system.edit');
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <BotSettingCard tier={tier} editable={editable} />
      <PreferencesCard tier={tier} editable={editable} />
    </Space>
  );
}
