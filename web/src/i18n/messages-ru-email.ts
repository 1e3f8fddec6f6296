import type { enAccountEmail } from './messages-en-email.ts';

/** Russian messages of e-mail verification and password recovery (part of the Russian catalogue). */
export const ruAccountEmail: typeof enAccountEmail = {
  accountEmail: {
    verifyTitle: 'Подтверждение адреса',
    verifying: 'Подтверждаем адрес…',
    verified: 'Адрес подтверждён.',
    welcomeCredited: (usd: string) => `Приветственный баланс ${usd} USD зачислен.`,
    goDashboard: 'В личный кабинет',
    forgotLink: 'Забыли пароль?',
    forgotTitle: 'Сброс пароля',
    forgotLead: 'Введите адрес аккаунта. Если аккаунт есть, на него придёт ссылка для нового пароля.',
    forgotButton: 'Отправить ссылку',
    forgotSent: 'Если аккаунт с этим адресом есть, ссылка для нового пароля отправлена. Проверьте почту.',
    resetTitle: 'Новый пароль',
    resetButton: 'Сохранить пароль',
    resetDone: 'Пароль сохранён. Все сеансы завершены; войдите с новым паролем.',
    goSignIn: 'Войти',
    missingToken: 'Эта страница открывается по ссылке из письма; ссылка неполная.',
    invalidLink: 'Ссылка недействительна. Запросите новую.',
    expiredLink: 'Срок действия ссылки истёк. Запросите новую.',
    usedLink: 'Ссылка уже использована.',
    solving: 'Проверяем, что вы не робот…',
    unverifiedNotice: 'Подтвердите адрес электронной почты: мы отправили ссылку.',
    resend: 'Отправить ссылку ещё раз',
    resent: 'Новая ссылка отправлена.',
  },
};
