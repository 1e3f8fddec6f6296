import type { Messages } from './messages-en.ts';
import { ruAccount } from './messages-ru-account.ts';
import { ruAccountEmail } from './messages-ru-email.ts';
import { ruChat } from './messages-ru-chat.ts';
import { ruTopUp } from './messages-ru-top-up.ts';

const pluralRules = new Intl.PluralRules('ru');

/** Picks the Russian plural form for a count: одна модель, две модели, пять моделей. */
function pluralRu(count: number, forms: { one: string; few: string; many: string }): string {
  const category = pluralRules.select(count);
  if (category === 'one') return forms.one;
  if (category === 'few') return forms.few;
  return forms.many;
}

const modelWord = (count: number) => pluralRu(count, { one: 'модель', few: 'модели', many: 'моделей' });

/** The Russian message catalogue: the same keys and parameters as the English one (checked by `Messages`). */
export const ru: Messages = {
  site: {
    name: 'Model Gateway',
    tagline: 'Один ключ, один баланс, много моделей — через API, совместимый с OpenAI.',
    skipToContent: 'Перейти к содержимому',
    mainNavigation: 'Основное меню',
    language: 'Язык',
    sandboxBadge: 'Песочница',
    sandboxBadgeTitle: 'Режим песочницы: ответы даёт симулятор, а не поставщик модели.',
  },
  nav: {
    models: 'Модели',
    docs: 'Документация',
    signIn: 'Войти',
    signUp: 'Регистрация',
    dashboard: 'Кабинет',
    chat: 'Чат',
    signOut: 'Выйти',
  },
  footer: {
    summary: 'Оплата по факту с предоплаченного баланса. Текст — за токены, изображения — за запрос.',
    privacy: 'Тексты запросов и ответов не сохраняются.',
    priceListJson: 'Прайс-лист (JSON)',
  },
  common: {
    loading: 'Загрузка…',
    retry: 'Повторить',
    notApplicable: 'не применяется',
    copy: 'Копировать',
    copied: 'Скопировано',
    copyFailed: 'Не удалось скопировать: выделите текст и скопируйте вручную',
    loadFailed: (detail: string) => `Не удалось загрузить список моделей: ${detail}`,
  },
  home: {
    title: 'Облачные ИИ-модели через один API, совместимый с OpenAI',
    lead: 'Один аккаунт, один предоплаченный баланс и один ключ sk- открывают текстовые модели и модели изображений многих поставщиков. Любой клиент или SDK, где можно указать базовый адрес и ключ, работает без изменений.',
    seeModels: 'Модели и цены',
    readDocs: 'Документация',
    pointPerUse: 'Оплата по факту: текст — за токены, изображения — за запрос',
    pointCompatible: 'Работает с официальными SDK OpenAI, LangChain, чат-приложениями и агентами для кода',
    pointPrivacy: 'Запросы и ответы не сохраняются',
    firstRequest: 'Первый запрос (Python)',
  },
  models: {
    title: 'Модели и цены',
    lead: 'Все модели, доступные через шлюз, с нашей ценой и прайсовой ценой поставщика. Цены в долларах США за 1 миллион токенов; модели изображений оплачиваются за запрос.',
    sandboxNotice:
      'Режим песочницы: ответы даёт симулятор, а не поставщик модели. Модели с пометкой «песочница» симулируются.',
    sandboxModelBadge: 'песочница',
    sandboxModelBadgeTitle: 'Симуляция: ответы даёт симулятор, а не поставщик модели',
    searchLabel: 'Поиск',
    searchPlaceholder: 'Название или id модели',
    familyLabel: 'Поставщик',
    allFamilies: 'Все поставщики',
    kindLabel: 'Тип',
    kindAll: 'Все',
    kindText: 'Текст',
    kindImage: 'Изображения',
    sortLabel: 'Сортировка',
    sortVendor: 'По поставщику',
    sortName: 'По названию',
    sortInputAsc: 'Цена ввода: по возрастанию',
    sortInputDesc: 'Цена ввода: по убыванию',
    sortOutputAsc: 'Цена вывода: по возрастанию',
    sortOutputDesc: 'Цена вывода: по убыванию',
    sortPerRequestAsc: 'Цена изображения: по возрастанию',
    sortPerRequestDesc: 'Цена изображения: по убыванию',
    sortDiscountDesc: 'Скидка: сначала наибольшая',
    shownCount: (shown: number, total: number) =>
      shown === total ? `${total} ${modelWord(total)}` : `${shown} из ${total} ${modelWord(total)}`,
    noMatches: 'Ни одна модель не подходит под эти фильтры.',
    clearFilters: 'Сбросить фильтры',
    tableCaption: 'Модели с нашей ценой и прайсовой ценой поставщика',
    columnModel: 'Модель',
    columnFamily: 'Поставщик',
    columnContext: 'Контекст',
    columnInput: 'Ввод, за 1M токенов',
    columnOutput: 'Вывод, за 1M токенов',
    columnPerRequest: 'За изображение',
    columnListPrice: 'Цена поставщика',
    columnDiscount: 'Скидка',
    columnSavings: 'Экономия при 10:1',
    kindTextName: 'текст',
    kindImageName: 'изображения',
    tokensTitle: (formatted: string) => `${formatted} токенов`,
    listPriceInput: (price: string) => `${price} ввод`,
    listPriceOutput: (price: string) => `${price} вывод`,
    listPricePerImage: (price: string) => `${price} за изображение`,
    defaultImagePrice: 'запрос по умолчанию',
    priceTiersSummary: (count: number) => `${count} цен по качеству и размеру`,
    tierAnyQuality: 'любое качество',
    tierAnySize: 'любой размер',
    footnoteRates:
      'Цены ввода и вывода — в долларах США за 1 миллион токенов. Результаты веб-поиска оплачиваются как обычные входные токены.',
    footnoteSavings:
      'Скидка и экономия сравнивают нашу цену с прайсовой ценой поставщика для 10M входных и 1M выходных токенов (для моделей изображений — 100 изображений).',
  },
  docs: {
    title: 'Документация API',
    lead: 'Шлюз говорит на языке API OpenAI. Укажите в любом SDK или клиенте OpenAI один из базовых адресов ниже и свой ключ.',
    baseUrlsTitle: 'Базовые адреса',
    publicBaseUrlTitle: 'Основной адрес (через CDN)',
    publicBaseUrlText: 'Используйте его по умолчанию.',
    directBaseUrlTitle: 'Прямой адрес',
    directBaseUrlText:
      'Для запросов, где модель может молчать дольше 2 минут (долгие рассуждения, очень длинные ответы без потоковой передачи): CDN закрывает соединение, молчащее так долго. Ключи и ответы те же.',
    copyAddress: (title: string) => `Копировать: ${title}`,
    keyTitle: 'Ваш ключ',
    keyText:
      'Запросы передают ключ как bearer-токен. В примерах вместо него заглушка sk-...; подставьте свой ключ и не храните его в системе контроля версий.',
    examplesTitle: 'Примеры',
    examplesLanguage: 'Язык примеров',
    install: 'Установка',
    contents: 'На этой странице',
    exampleChat: 'Ответ в чате',
    exampleChatText: 'Один запрос — один ответ.',
    exampleStreaming: 'Потоковая передача',
    exampleStreamingText: 'Токены приходят по мере генерации, как server-sent events.',
    exampleTools: 'Вызов инструментов',
    exampleToolsText: 'Модель просит вызвать вашу функцию; вы выполняете её и отправляете результат обратно.',
    exampleWebSearch: 'Веб-поиск (Responses API)',
    exampleWebSearchText:
      'Responses API с инструментом web_search. Ответы содержат аннотации url_citation с настоящими ссылками; результаты поиска оплачиваются как обычные входные токены.',
    exampleImages: 'Генерация изображений',
    exampleImagesText: 'Изображения оплачиваются за запрос.',
    copyExample: (title: string) => `Копировать пример: ${title}`,
    modelsNote: 'В поле model подходит любой id со страницы моделей.',
  },
  ...ruAccount,
  ...ruAccountEmail,
  ...ruChat,
  ...ruTopUp,

  notFound: {
    title: 'Страница не найдена',
    text: 'По этому адресу ничего нет.',
    home: 'На главную',
  },
};
