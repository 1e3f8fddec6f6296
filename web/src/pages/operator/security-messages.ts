import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';

const en = {
  totp: {
    enrolTitle: 'Set up your second factor',
    enrolLead:
      'Operators sign in with a code from an authenticator app as well as the password. Scan the QR code (or enter the key by hand), then type the code the app shows.',
    start: 'Show the QR code',
    secret: 'Key',
    code: 'Code from the app',
    confirm: 'Turn on',
    codesTitle: 'Recovery codes',
    codesLead: 'Each code signs you in once if you lose the phone. Keep them somewhere safe: they are shown only now.',
    done: 'I have saved them',
    verifyTitle: 'Second factor',
    verifyLead: 'Enter the code from your authenticator app, or a recovery code.',
    verify: 'Continue',
  },
  audit: {
    action: 'Action',
    actor: 'Actor (e-mail or id)',
    target: 'Target id',
    search: 'Search',
    time: 'Time',
    targetColumn: 'Target',
    before: 'Before',
    after: 'After',
    none: 'No records match.',
    more: 'Older records',
  },
  loading: 'Loading…',
  failed: 'Something went wrong:',
};

export type SecurityMessages = typeof en;

const ru: SecurityMessages = {
  totp: {
    enrolTitle: 'Настройте второй фактор',
    enrolLead:
      'Операторы входят с паролем и кодом из приложения-аутентификатора. Отсканируйте QR-код (или введите ключ вручную) и введите код из приложения.',
    start: 'Показать QR-код',
    secret: 'Ключ',
    code: 'Код из приложения',
    confirm: 'Включить',
    codesTitle: 'Резервные коды',
    codesLead:
      'Каждый код один раз заменяет телефон при входе. Сохраните их в надёжном месте: они показаны только сейчас.',
    done: 'Я их сохранил',
    verifyTitle: 'Второй фактор',
    verifyLead: 'Введите код из приложения-аутентификатора или резервный код.',
    verify: 'Продолжить',
  },
  audit: {
    action: 'Действие',
    actor: 'Кто (e-mail или id)',
    target: 'Id объекта',
    search: 'Искать',
    time: 'Время',
    targetColumn: 'Объект',
    before: 'До',
    after: 'После',
    none: 'Записей не найдено.',
    more: 'Более ранние записи',
  },
  loading: 'Загрузка…',
  failed: 'Что-то пошло не так:',
};

const catalogues = { en, ru } as const satisfies Record<Language, SecurityMessages>;

/** The second factor's and the audit log's strings in the current language. */
export function useSecurityMessages(): SecurityMessages {
  return catalogues[useI18n().language];
}
