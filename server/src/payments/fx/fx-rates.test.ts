import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from 'undici';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { startCbrSimulator, type RunningCbrSimulator } from '../../../../simulators/cbr/start-cbr-simulator.ts';
import { createPaymentHttp } from '../create-payment-http.ts';
import { parseCbrDailyXml } from './cbr-daily-rates.ts';
import { findRateToLock, refreshFxRate, type FxDeps } from './fx-rates.ts';
import { creditMicrosFor, effectiveMicrosPerUsd, returnedMicrosFor } from './quote-top-up.ts';

describe('FX arithmetic', () => {
  test('1,000.00 RUB at 92.2821 plus 3% credits 10.52 USD, rounded down', () => {
    const rate = { currency: 'RUB' as const, microsPerUsd: 92_282_100, source: 'cbr', markupBasisPoints: 300 };
    assert.equal(creditMicrosFor({ currency: 'RUB', minorUnits: 100_000 }, rate), 10_520_716);
    assert.equal(effectiveMicrosPerUsd(rate), 95_050_563);
  });

  test('USD converts one to one', () => {
    const rate = { currency: 'USD' as const, microsPerUsd: 1_000_000, source: 'usd', markupBasisPoints: 0 };
    assert.equal(creditMicrosFor({ currency: 'USD', minorUnits: 500 }, rate), 5_000_000);
  });

  test('partial refunds take back their share rounded up, and the whole payment takes back exactly the credit', () => {
    const order = { creditMicros: 10_520_716, payMinorUnits: 100_000 };
    const third = returnedMicrosFor({ ...order, returnedMinorUnits: 33_333 });
    assert.equal(third, 3_506_871);
    assert.equal(returnedMicrosFor({ ...order, returnedMinorUnits: 100_000 }), 10_520_716);
    assert.equal(returnedMicrosFor({ ...order, returnedMinorUnits: 200_000 }), 10_520_716);
  });
});

describe('CBR daily feed', () => {
  test('reads the dollar from the feed, dividing by its nominal', () => {
    const xml =
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="02.03.2026" name="Foreign Currency Market">' +
      '<Valute ID="R01235"><NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>10</Nominal><Name>x</Name>' +
      '<Value>812,3456</Value><VunitRate>81,23456</VunitRate></Valute></ValCurs>';
    assert.deepEqual(parseCbrDailyXml(xml), { rateDate: '2026-03-02', microRoublesPerUsd: 81_234_560 });
  });

  test('a feed without a dollar or with a dotted value is refused', () => {
    assert.throws(() => parseCbrDailyXml('<ValCurs Date="02.03.2026"></ValCurs>'), /no USD/);
    const dotted =
      '<ValCurs Date="02.03.2026"><Valute><CharCode>USD</CharCode><Nominal>1</Nominal><Value>81.2</Value></Valute></ValCurs>';
    assert.throws(() => parseCbrDailyXml(dotted), /unreadable/);
  });
});

for (const kind of databaseKinds) {
  describe(`FX rates from the CBR simulator on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let simulator: RunningCbrSimulator;
    let nowMs = 1_000_000;
    const agent = new Agent();
    let deps: FxDeps;

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      simulator = await startCbrSimulator({ usdValue: '92,2821', date: '26.11.2026' });
      deps = {
        db: handle.db,
        clock: { nowMs: () => nowMs },
        paymentHttp: createPaymentHttp({ dispatcher: agent }),
        fx: { markupBasisPoints: 300, fixedMicroRoublesPerUsd: undefined, maxRateAgeMs: 60_000, cbrUrl: simulator.url },
      };
    });
    after(async () => {
      await simulator.close();
      await agent.close();
      await handle.close();
      await testDatabase.drop();
    });

    test('no rate is quoted before the first fetch', async () => {
      assert.equal(await findRateToLock(deps, 'RUB'), undefined);
    });

    test('a refresh through the windows-1251 feed stores the day and locks it with the markup', async () => {
      assert.equal(await refreshFxRate(deps), '2026-11-26');
      assert.deepEqual(await findRateToLock(deps, 'RUB'), {
        currency: 'RUB',
        microsPerUsd: 92_282_100,
        source: 'cbr:2026-11-26',
        markupBasisPoints: 300,
      });
    });

    test('a feed that is down keeps the stored rate until it is too old', async () => {
      simulator.state.isDown = true;
      await assert.rejects(refreshFxRate(deps), /HTTP 503/);
      assert.equal((await findRateToLock(deps, 'RUB'))?.microsPerUsd, 92_282_100);
      nowMs += 60_001;
      assert.equal(await findRateToLock(deps, 'RUB'), undefined);
      simulator.state.isDown = false;
    });

    test("the operator's fixed rate replaces the feed", async () => {
      const fixed = { ...deps, fx: { ...deps.fx, fixedMicroRoublesPerUsd: 100_000_000 } };
      assert.equal(await refreshFxRate(fixed), undefined);
      assert.deepEqual(await findRateToLock(fixed, 'RUB'), {
        currency: 'RUB',
        microsPerUsd: 100_000_000,
        source: 'fixed',
        markupBasisPoints: 0,
      });
    });
  });
}
