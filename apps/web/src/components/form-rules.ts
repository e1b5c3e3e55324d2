import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, schemas } from '@edgekeep/contract';

type Schema = { safeParse: (v: unknown) => { success: boolean } };

const matches = (schema: Schema, message: string): FormRule => ({
  validator: (_, value) => (!value || schema.safeParse(value).success ? Promise.resolve() : Promise.reject(new Error(message))),
});

/** Form rules from the contract's schemas, with the spec's validation messages. */
export function useFormRules() {
  const { t } = useTranslation();
  return {
    required: { required: true, message: t('validation.required') } satisfies FormRule,
    email: matches(schemas.email, t('validation.emailFormat')),
    password: matches(schemas.password, t('validation.passwordLength', { min: PASSWORD_MIN_LENGTH })),
    code: matches(schemas.otpCode, t('validation.codeFormat')),
    name: matches(schemas.accountName, t('validation.wrongFormat')),
    /** The confirmation field must equal another field of the form. */
    sameAs: (field: string): FormRule => ({ getFieldValue }) => ({
      validator: (_, value) =>
        !value || value === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(t('validation.passwordMismatch'))),
    }),
  };
}
