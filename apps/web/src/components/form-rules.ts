import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, schemas } from '@edgekeep/contract';

type Schema = { safeParse: (v: unknown) => { success: boolean } };

/** An antd rule from a contract schema or pattern: an empty value passes (pair it with `required` where needed). */
export const zodRule = (schema: Schema | RegExp, message: string): FormRule => ({
  validator: (_, value) => {
    if (value === undefined || value === null || value === '') return Promise.resolve();
    const ok = schema instanceof RegExp ? schema.test(String(value)) : schema.safeParse(value).success;
    return ok ? Promise.resolve() : Promise.reject(new Error(message));
  },
});

/** Form rules from the contract's schemas, with the spec's validation messages. */
export function useFormRules() {
  const { t } = useTranslation();
  return {
    required: { required: true, message: t('validation.required') } satisfies FormRule,
    email: zodRule(schemas.email, t('validation.emailFormat')),
    password: zodRule(schemas.password, t('validation.passwordLength', { min: PASSWORD_MIN_LENGTH })),
    code: zodRule(schemas.otpCode, t('validation.codeFormat')),
    name: zodRule(schemas.accountName, t('validation.wrongFormat')),
    /** The confirmation field must equal another field of the form. */
    sameAs: (field: string): FormRule => ({ getFieldValue }) => ({
      validator: (_, value) =>
        !value || value === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(t('validation.passwordMismatch'))),
    }),
  };
}
