import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type ExportedRecord = {
  id: string;
  occurred_at: string;
  action: string;
  actor_label: string;
  target_id: string;
  before_json: string | null;
  after_json: string | null;
};

for (const databaseKind of databaseKinds) {
  describe(`audit log from the CLI on ${databaseKind}`, () => {
    let gateway: TestGateway;
    before(async () => {
      gateway = await startTestGateway({ databaseKind });
    });
    after(() => gateway.close());

    const cli = async (args: string[]) => {
      const result = await runCli(gateway.config, args);
      assert.equal(result.exitCode, 0, result.stderr);
      return result.stdout;
    };

    test('CLI changes are recorded (actor cli) and the log exports as JSON lines and CSV', async () => {
      await gateway.createUserWithKey({ email: 'cli-audit@example.com' });
      await cli(['balance', 'credit', '--email', 'cli-audit@example.com', '--usd', '3', '--reason', 'wire, "march"']);
      await cli(['model', 'set-price', '--model', 'gpt-4o-mini', '--input-usd', '0.2']);
      const lines = (await cli(['audit', 'export'])).trim().split('\n');
      const records = lines.map((line) => JSON.parse(line) as ExportedRecord);
      assert.deepEqual(
        records.map((record) => [record.action, record.actor_label]),
        [
          ['adjustBalance', 'cli'],
          ['setModelPrice', 'cli'],
        ],
      );
      const price = records[1]!;
      assert.equal(price.target_id, 'gpt-4o-mini');
      assert.equal((JSON.parse(price.after_json ?? '{}') as { input_rate_micros: number }).input_rate_micros, 200_000);
      assert.notEqual(price.before_json, price.after_json);
      assert.ok(Date.parse(records[0]!.occurred_at) <= Date.parse(price.occurred_at));

      const csv = (await cli(['audit', 'export', '--format', 'csv'])).trim().split('\n');
      assert.equal(
        csv[0],
        'id,occurred_at,category,action,actor_user_id,actor_label,target_kind,target_id,account_id,before_json,after_json,client_address',
      );
      assert.equal(csv.length, 3);
      assert.match(csv[1]!, /,adjustBalance,,cli,user,/);
      assert.ok(csv[1]!.includes('wire, \\""march\\""'), 'quotes and commas are escaped (RFC 4180)');

      const none = await cli(['audit', 'export', '--from', '2999-01-01']);
      assert.equal(none, '');
      const wrong = await runCli(gateway.config, ['audit', 'export', '--format', 'xml']);
      assert.equal(wrong.exitCode, 2);
      assert.match(wrong.stderr, /--format must be jsonl or csv/);
    });
  });
}
