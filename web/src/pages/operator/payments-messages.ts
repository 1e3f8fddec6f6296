import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';

const en = {
  webhooksTitle: 'Webhook URLs to register',
  webhooksLead: 'Enter each address in the provider’s dashboard as its notification (webhook) URL.',
  webhooksSandbox: 'simulator: nothing to register',
  webhooksNone: 'No payment provider is running.',
  filters: 'Filters',
  provider: 'Provider',
  method: 'Method',
  status: 'Status',
  userId: 'User id',
  from: 'From',
  to: 'To (exclusive)',
  any: 'any',
  apply: 'Apply',
  none: 'No payments match.',
  more: 'Show more',
  paid: 'Paid',
  credit: 'Credit',
  rate: 'Rate',
  returned: 'Returned',
  user: 'User',
  sandbox: 'sandbox',
  paidAfterExpiry: 'Paid after its order expired: credited at the quoted amount; check it.',
  review: (reason: string) => `Needs a look: ${reason}`,
  refund: 'Refund',
  refundAmount: (currency: string) => `Amount, ${currency} (empty: all that is left)`,
  refundDone: 'Refunded through the provider; the balance was debited.',
  markPaid: 'Mark paid',
  markPaidLead: 'Only for a payment you found in the provider’s records. The reason goes into the ledger entry.',
  markPaidDone: 'Credited.',
  reason: 'Reason (required)',
  confirm: 'Confirm',
  badAmount: 'Enter an amount with at most two decimals.',
  transitions: 'History',
};

type PaymentsMessages = typeof en;

const ru: PaymentsMessages = {
  webhooksTitle: 'Адреса уведомлений (webhook) для регистрации',
  webhooksLead: 'Укажите каждый адрес в кабинете платёжной системы как адрес уведомлений (webhook).',
  webhooksSandbox: 'симулятор: регистрировать не нужно',
  webhooksNone: 'Ни одна платёжная система не запущена.',
  filters: 'Фильтры',
  provider: 'Платёжная система',
  method: 'Способ',
  status: 'Статус',
  userId: 'Id пользователя',
  from: 'С',
  to: 'По (не включая)',
  any: 'любой',
  apply: 'Применить',
  none: 'Платежей не найдено.',
  more: 'Показать ещё',
  paid: 'Оплачено',
  credit: 'Зачислено',
  rate: 'Курс',
  returned: 'Возвращено',
  user: 'Пользователь',
  sandbox: 'песочница',
  paidAfterExpiry: 'Оплачен после истечения заказа: зачислен по зафиксированной сумме; проверьте.',
  review: (reason: string) => `Требует проверки: ${reason}`,
  refund: 'Вернуть',
  refundAmount: (currency: string) => `Сумма, ${currency} (пусто — весь остаток)`,
  refundDone: 'Возврат проведён через платёжную систему; баланс списан.',
  markPaid: 'Отметить оплаченным',
  markPaidLead: 'Только для платежа, найденного в данных платёжной системы. Причина попадёт в запись журнала.',
  markPaidDone: 'Зачислено.',
  reason: 'Причина (обязательно)',
  confirm: 'Подтвердить',
  badAmount: 'Введите сумму не более чем с двумя знаками после запятой.',
  transitions: 'История',
};

const catalogues = { en, ru } as const satisfies Record<Language, PaymentsMessages>;

/** The console's payments tab strings in the current language. */
export function usePaymentsMessages(): PaymentsMessages {
  return catalogues[useI18n().language];
}
