import type { MailLocale } from './mailer.ts';
import type { MailContent } from './render-mail.ts';

/** What each account mail needs to be written: links, amounts as display text, names. Never prompt text. */
export type AccountMailInput =
  | { kind: 'verify-email'; url: string; ttlHours: number }
  | { kind: 'reset-password'; url: string; ttlMinutes: number }
  | { kind: 'key-created'; keyName: string; keyHint: string; dashboardUrl: string }
  | { kind: 'balance-low'; balanceUsd: string; thresholdUsd: string; topUpUrl: string }
  | { kind: 'subscription-renewal'; planName: string; renewsAt: string; priceUsd: string; dashboardUrl: string }
  | { kind: 'route-circuit-open'; routeId: string; modelId: string; consoleUrl: string }
  | { kind: 'search-failing'; failureCount: number; engine: string; consoleUrl: string };

export type AccountMailKind = AccountMailInput['kind'];

type Templates = { [Kind in AccountMailKind]: (input: Extract<AccountMailInput, { kind: Kind }>) => MailContent };

const english: Templates = {
  'verify-email': (input) => ({
    subject: 'Confirm your e-mail address',
    paragraphs: [
      'Welcome! Confirm that this address is yours to finish signing up.',
      `The link works once and for ${input.ttlHours} hours.`,
    ],
    action: { label: 'Confirm e-mail', url: input.url },
    footer: 'If you did not sign up, ignore this mail: no account is confirmed without the link.',
  }),
  'reset-password': (input) => ({
    subject: 'Reset your password',
    paragraphs: [
      'Someone asked to reset the password of the account with this address.',
      `The link works once and for ${input.ttlMinutes} minutes. Setting a new password signs out every session.`,
    ],
    action: { label: 'Set a new password', url: input.url },
    footer: 'If it was not you, ignore this mail: your password stays as it is.',
  }),
  'key-created': (input) => ({
    subject: 'A new API key was created',
    paragraphs: [`A new API key "${input.keyName}" (${input.keyHint}) was created on your account.`],
    action: { label: 'Review your keys', url: input.dashboardUrl },
    footer: 'If it was not you, revoke the key and change your password now.',
  }),
  'balance-low': (input) => ({
    subject: 'Your balance is running low',
    paragraphs: [
      `Your balance is ${input.balanceUsd} USD, below the ${input.thresholdUsd} USD you set for this alert.`,
    ],
    action: { label: 'Top up', url: input.topUpUrl },
    footer: 'You can change or turn off this alert in your account settings.',
  }),
  'subscription-renewal': (input) => ({
    subject: 'Your subscription renews soon',
    paragraphs: [
      `Your "${input.planName}" subscription renews on ${input.renewsAt} for ${input.priceUsd} USD from your balance.`,
    ],
    action: { label: 'Manage the subscription', url: input.dashboardUrl },
    footer: 'Keep enough balance for the renewal, or turn renewal off before then.',
  }),
  'route-circuit-open': (input) => ({
    subject: `Route ${input.routeId} is failing`,
    paragraphs: [
      `The circuit of route ${input.routeId} (model ${input.modelId}) opened after repeated upstream failures.`,
      'Requests go to the other routes of the model until it recovers.',
    ],
    action: { label: 'Open the console', url: input.consoleUrl },
    footer: 'Operator alert of this gateway.',
  }),
  'search-failing': (input) => ({
    subject: 'Web search is failing',
    paragraphs: [`The ${input.engine} search engine failed ${input.failureCount} times in a row.`],
    action: { label: 'Open the console', url: input.consoleUrl },
    footer: 'Operator alert of this gateway.',
  }),
};

const russian: Templates = {
  'verify-email': (input) => ({
    subject: 'Подтвердите адрес электронной почты',
    paragraphs: [
      'Добро пожаловать! Подтвердите, что этот адрес ваш, чтобы завершить регистрацию.',
      `Ссылка действует один раз и ${input.ttlHours} ч.`,
    ],
    action: { label: 'Подтвердить адрес', url: input.url },
    footer: 'Если вы не регистрировались, просто не отвечайте: без ссылки аккаунт не подтвердится.',
  }),
  'reset-password': (input) => ({
    subject: 'Сброс пароля',
    paragraphs: [
      'Кто-то запросил сброс пароля аккаунта с этим адресом.',
      `Ссылка действует один раз и ${input.ttlMinutes} мин. Новый пароль завершает все сеансы.`,
    ],
    action: { label: 'Задать новый пароль', url: input.url },
    footer: 'Если это были не вы, ничего не делайте: пароль останется прежним.',
  }),
  'key-created': (input) => ({
    subject: 'Создан новый API-ключ',
    paragraphs: [`В вашем аккаунте создан новый API-ключ «${input.keyName}» (${input.keyHint}).`],
    action: { label: 'Проверить ключи', url: input.dashboardUrl },
    footer: 'Если это были не вы, отзовите ключ и смените пароль.',
  }),
  'balance-low': (input) => ({
    subject: 'Баланс заканчивается',
    paragraphs: [`Ваш баланс ${input.balanceUsd} USD, ниже заданного порога ${input.thresholdUsd} USD.`],
    action: { label: 'Пополнить', url: input.topUpUrl },
    footer: 'Порог уведомления можно изменить или отключить в настройках аккаунта.',
  }),
  'subscription-renewal': (input) => ({
    subject: 'Скоро продление подписки',
    paragraphs: [`Подписка «${input.planName}» продлится ${input.renewsAt} за ${input.priceUsd} USD с баланса.`],
    action: { label: 'Управлять подпиской', url: input.dashboardUrl },
    footer: 'Пополните баланс к продлению или отключите его заранее.',
  }),
  'route-circuit-open': (input) => ({
    subject: `Маршрут ${input.routeId} отказывает`,
    paragraphs: [
      `Цепь маршрута ${input.routeId} (модель ${input.modelId}) разомкнулась после повторных ошибок поставщика.`,
      'Запросы идут по другим маршрутам модели, пока он не восстановится.',
    ],
    action: { label: 'Открыть консоль', url: input.consoleUrl },
    footer: 'Уведомление оператора этого шлюза.',
  }),
  'search-failing': (input) => ({
    subject: 'Веб-поиск не работает',
    paragraphs: [`Поисковая система ${input.engine} отказала ${input.failureCount} раз подряд.`],
    action: { label: 'Открыть консоль', url: input.consoleUrl },
    footer: 'Уведомление оператора этого шлюза.',
  }),
};

const templatesByLocale = { en: english, ru: russian } satisfies Record<MailLocale, Templates>;

/** The content of one account mail in the account's language. */
export function writeAccountMail(locale: MailLocale, input: AccountMailInput): MailContent {
  const template = templatesByLocale[locale][input.kind] as (value: AccountMailInput) => MailContent;
  return template(input);
}

/** A stored locale read back: anything but `ru` is English. */
export function toMailLocale(value: string): MailLocale {
  return value === 'ru' ? 'ru' : 'en';
}
