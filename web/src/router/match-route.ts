/** The pages of the site. */
export const routeIds = [
  'home',
  'models',
  'docs',
  'signIn',
  'signUp',
  'dashboard',
  'chat',
  'chatEncryption',
  'operator',
  'topUpReturn',
  'topUpReceipt',
  'verifyEmail',
  'forgotPassword',
  'resetPassword',
  'notFound',
] as const;
export type RouteId = (typeof routeIds)[number];

/** The path of each page that has one. */
export const routePaths = {
  home: '/',
  models: '/models',
  docs: '/docs',
  signIn: '/sign-in',
  signUp: '/sign-up',
  dashboard: '/dashboard',
  chat: '/chat',
  chatEncryption: '/chat/encryption',
  operator: '/operator',
  topUpReturn: '/billing/return',
  topUpReceipt: '/billing/receipt',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
} as const satisfies Record<Exclude<RouteId, 'notFound'>, string>;

/** The page for a path; a trailing slash is ignored, and anything unknown is `notFound`. */
export function matchRoute(pathname: string): RouteId {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const [id, path] of Object.entries(routePaths)) {
    if (path === normalized) return id as Exclude<RouteId, 'notFound'>;
  }
  return 'notFound';
}
