import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/**
 * Two views of one connection pool (one SQLite connection, one PostgreSQL pool): `barrier` runs before every
 * connection the first view takes; the second view takes connections directly. The pool is opened and closed once.
 */
export function createSharedDriverDialects(dialect: Dialect): {
  withBarrier: (barrier: () => Promise<void>) => Dialect;
  direct: Dialect;
} {
  const driver = dialect.createDriver();
  let initializing: Promise<void> | undefined;
  let destroying: Promise<void> | undefined;
  const view = (barrier: (() => Promise<void>) | undefined): Dialect => ({
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => ({
      init: () => (initializing ??= driver.init()),
      acquireConnection: async (): Promise<DatabaseConnection> => {
        if (barrier) await barrier();
        return driver.acquireConnection();
      },
      beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
      commitTransaction: (connection) => driver.commitTransaction(connection),
      rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
      releaseConnection: (connection) => driver.releaseConnection(connection),
      destroy: () => (destroying ??= driver.destroy()),
    }),
  });
  return { withBarrier: (barrier) => view(barrier), direct: view(undefined) };
}
