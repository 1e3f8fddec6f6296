import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { mapErrorType } from '../anthropic-api/convert-error.ts';
import { responseFailureCodes } from '../responses/response-object.ts';
import { errorClasses, listErrorSamples } from './catalog.ts';
import { passedOnVendorCodes, toInvalidRequestCode } from './invalid-request-error.ts';

const errorsPage = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
/** The page's sections by heading (`''` for the part before the first `##`). */
const sections = new Map(
  errorsPage.split(/^## /m).map((section, index) => {
    const [heading = '', ...body] = section.split('\n');
    return [index === 0 ? '' : heading.trim(), body.join('\n')] as const;
  }),
);
const tableRows = (section: string) =>
  (sections.get(section) ?? '')
    .split('\n')
    .filter((line) => /^\| [A-Z]\w+Error\s+\|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim()));
const documentedRows = tableRows('');
const unquote = (cell: string | undefined) => (cell ?? '').replace(/^`|`$/g, '');

/** The source files that raise errors: everything in server/src but tests, the catalogue and the simulators. */
const serverSource = path.resolve(import.meta.dirname, '..');
const raisingFiles = readdirSync(serverSource, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .filter((file) => !/^(errors|simulators)\/|\/simulator\//.test(file))
  .map((file) => readFileSync(path.join(serverSource, file), 'utf8'));

describe('docs/errors.md and the error catalogue', () => {
  test('docs/errors.md lists exactly the error classes of the catalogue', () => {
    const documented = documentedRows.map((cells) => cells[1]).sort();
    const coded = listErrorSamples()
      .map((error) => error.name)
      .sort();
    assert.deepEqual(documented, coded);
  });

  test('each documented status, type and default code matches the class', () => {
    for (const error of listErrorSamples()) {
      const row = documentedRows.find((cells) => cells[1] === error.name);
      assert.ok(row, `${error.name} is documented`);
      assert.equal(Number(row[2]), error.status, `${error.name} status`);
      assert.equal(row[3], error.type, `${error.name} type`);
      assert.equal(row[4], error.code ?? 'null', `${error.name} code`);
    }
  });

  test('the default code of each class is the first of its closed list', () => {
    for (const error of listErrorSamples()) {
      const errorClass = errorClasses.find((candidate) => error instanceof candidate);
      assert.equal(error.code, errorClass?.codes[0] ?? null, error.name);
    }
  });

  test('the Codes table lists every code of every class, and no other', () => {
    const documented = tableRows('Codes')
      .map((cells) => `${cells[1]} ${unquote(cells[2])}`)
      .sort();
    const coded = errorClasses.flatMap((errorClass) => errorClass.codes.map((code) => `${errorClass.name} ${code}`));
    assert.deepEqual(documented, coded.sort());
  });

  test('every listed code is raised somewhere, or passed on from a vendor', () => {
    for (const errorClass of errorClasses) {
      for (const code of errorClass.codes.slice(1)) {
        const isRaised = raisingFiles.some(
          (text) =>
            (text.includes(errorClass.name) && text.includes(`'${code}'`)) ||
            (errorClass.name === 'InvalidRequestError' && text.includes(`vendorCode: '${code}'`)),
        );
        const isPassedOn = errorClass.name === 'InvalidRequestError' && passedOnVendorCodes.some((c) => c === code);
        assert.ok(isRaised || isPassedOn, `${errorClass.name} ${code} is raised nowhere`);
      }
    }
  });

  test('a vendor code outside the list reaches the client as the default', () => {
    assert.equal(toInvalidRequestCode('context_length_exceeded'), 'context_length_exceeded');
    assert.equal(toInvalidRequestCode('no_image_generated'), 'no_image_generated');
    assert.equal(toInvalidRequestCode('INVALID_ARGUMENT'), 'invalid_value');
    assert.equal(toInvalidRequestCode('invalid_request_error'), 'invalid_value');
    assert.equal(toInvalidRequestCode(undefined), 'invalid_value');
  });

  test('the /v1/messages table gives each class the Anthropic type it is sent with', () => {
    const rows = tableRows('`/v1/messages`');
    assert.deepEqual(
      rows.map((cells) => cells[1]).sort(),
      listErrorSamples()
        .map((error) => error.name)
        .sort(),
    );
    for (const error of listErrorSamples()) {
      const row = rows.find((cells) => cells[1] === error.name);
      assert.equal(unquote(row?.[2]), mapErrorType(error.status), error.name);
    }
  });

  test('the /v1/responses section names every code a failed response carries', () => {
    const section = sections.get('`/v1/responses`') ?? '';
    for (const code of responseFailureCodes) assert.ok(section.includes(`\`${code}\``), code);
  });

  test('a rate-limit error always carries a whole-second Retry-After of at least 1', () => {
    const samples = listErrorSamples();
    const rateLimit = samples.find((error) => error.status === 429);
    assert.equal(rateLimit?.headers['retry-after'], '1');
  });
});
