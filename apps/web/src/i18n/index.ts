import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@edgekeep/contract/constants';
import type { Messages } from './en-us';

const STORAGE_KEY = 'language';

/** Each language's name as written in that language, for the header's switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { zh_TW: '繁體中文', zh_CN: '简体中文', en_US: 'English' };
/** Each language is its own chunk: the console loads the one it shows (and the default, its fallback). */
const loaders: Record<Language, () => Promise<Messages>> = {
  en_US: async () => (await import('./en-us')).enUS,
  zh_TW: async () => (await import('./zh-tw')).zhTW,
  zh_CN: async () => (await import('./zh-cn')).zhCN,
};

async function loadLanguage(lang: Language) {
  if (!i18next.hasResourceBundle(lang, 'translation')) i18next.addResourceBundle(lang, 'translation', await loaders[lang]());
}

const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

export function storedLanguage(): Language {
  const v = localStorage.getItem(STORAGE_KEY);
  return isLanguage(v) ? v : DEFAULT_LANGUAGE;
}

export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE);

export async function setLanguage(lang: Language) {
  localStorage.setItem(STORAGE_KEY, lang);
  await loadLanguage(lang);
  await i18next.changeLanguage(lang);
}

export async function initI18n() {
  const lng = storedLanguage();
  // The messages are asked for first, before anything else the console starts loading: nothing renders without them.
  const languages = [...new Set([lng, DEFAULT_LANGUAGE])];
  const messages = Promise.all(languages.map((lang) => loaders[lang]()));
  await i18next.use(initReactI18next).init({ lng, fallbackLng: DEFAULT_LANGUAGE, resources: {}, interpolation: { escapeValue: false } });
  (await messages).forEach((bundle, i) => i18next.addResourceBundle(languages[i], 'translation', bundle));
  await i18next.changeLanguage(lng);
  const markPage = (lang: string) => (document.documentElement.lang = lang.replace('_', '-'));
  markPage(i18next.language);
  i18next.on('languageChanged', markPage);
}
