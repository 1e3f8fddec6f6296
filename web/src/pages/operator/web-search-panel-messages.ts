import type { WebSearchHealthView } from '../../../../contract/web-search-health.ts';
import type { Language } from '../../i18n/language.ts';

type FailureKind = NonNullable<WebSearchHealthView['last_failure']>['kind'];

const en = {
  title: 'Web search',
  refresh: 'Refresh',
  engineAt: (name: string, address: string) => `Engine: ${name} at ${address}.`,
  simulator: 'Engine: the search simulator (sandbox mode). Its results are made up; set SEARCH_ENGINE for real ones.',
  noEngine: 'Engine: none.',
  ok: 'Working: the last search succeeded (or none has failed yet).',
  notConfigured:
    'Web search is NOT configured: SEARCH_ENGINE is not set, so every web_search call is answered without search results.',
  failingSince: (since: string, inARow: number) =>
    `Failing since ${since}: the last ${inARow} searches failed. Answers that asked for web search come without results.`,
  failureCount: 'Failed searches since this process started',
  lastFailure: 'Last failure',
  lastSuccess: 'Last successful search',
  never: 'none yet',
  kinds: {
    timeout: 'the engine took too long',
    unavailable: 'the engine could not be reached or answered with a server error',
    rejected: 'the engine refused the call (its key, its limits or its settings)',
  } satisfies Record<FailureKind, string>,
  threshold: (count: number) =>
    `Web search counts as failing after ${count} failed searches in a row, until one succeeds (as /readyz reports).`,
  adviceFailing:
    'Check that the engine answers at its address, that SEARCH_API_KEY is valid and that its quota is not spent; the gateway log has a "web search failed" line for each failure. Setup:',
  adviceSetup: 'To set up or change the engine (SEARCH_ENGINE, SEARCH_BASE_URL, SEARCH_API_KEY), see',
  perProcess:
    'As seen by the process that answered: with several processes or nodes, each counts its own searches (the gateway_web_search_total metric adds them up).',
};

export type WebSearchPanelText = typeof en;

const ru: WebSearchPanelText = {
  title: 'Веб-поиск',
  refresh: 'Обновить',
  engineAt: (name, address) => `Поисковая система: ${name} по адресу ${address}.`,
  simulator:
    'Поисковая система: симулятор поиска (режим песочницы). Его результаты выдуманы; для настоящих задайте SEARCH_ENGINE.',
  noEngine: 'Поисковая система: нет.',
  ok: 'Работает: последний поиск прошёл успешно (или ни один ещё не завершился ошибкой).',
  notConfigured:
    'Веб-поиск НЕ настроен: SEARCH_ENGINE не задан, поэтому на каждый вызов web_search ответ приходит без результатов поиска.',
  failingSince: (since, inARow) =>
    `Не работает с ${since}: последние поиски (${inARow}) завершились ошибкой. Ответы, где нужен веб-поиск, приходят без результатов.`,
  failureCount: 'Неудачных поисков с запуска этого процесса',
  lastFailure: 'Последняя ошибка',
  lastSuccess: 'Последний успешный поиск',
  never: 'пока нет',
  kinds: {
    timeout: 'поисковая система не ответила вовремя',
    unavailable: 'поисковая система недоступна или ответила ошибкой сервера',
    rejected: 'поисковая система отказала (ключ, лимиты или её настройки)',
  },
  threshold: (count) =>
    `Веб-поиск считается неработающим после ${count} неудачных поисков подряд, пока один не пройдёт успешно (так же сообщает /readyz).`,
  adviceFailing:
    'Проверьте, что поисковая система отвечает по своему адресу, что SEARCH_API_KEY действителен и квота не исчерпана; в журнале шлюза на каждую ошибку есть строка "web search failed". Настройка:',
  adviceSetup: 'Как настроить или сменить поисковую систему (SEARCH_ENGINE, SEARCH_BASE_URL, SEARCH_API_KEY), см.',
  perProcess:
    'Так видит процесс, который ответил: при нескольких процессах или узлах каждый считает свои поиски (метрика gateway_web_search_total их суммирует).',
};

/** The Web search tab's strings, in each language of the app. */
export const webSearchPanelCatalogues = { en, ru } as const satisfies Record<Language, WebSearchPanelText>;
