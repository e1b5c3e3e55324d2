import type { Locale } from 'antd/es/locale';
import type { Language } from '@edgekeep/contract/constants';

const loaders: Record<Language, () => Promise<{ default: Locale }>> = {
  zh_TW: () => import('antd/locale/zh_TW'),
  zh_CN: () => import('antd/locale/zh_CN'),
  en_US: () => import('antd/locale/en_US'),
};

/** The component library's own texts (pagination, pickers, empty states) in the console's language. */
export const loadAntdLocale = async (lang: Language) => (await loaders[lang]()).default;
