import 'i18next';
import type { Messages } from './en-us';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages };
  }
}
