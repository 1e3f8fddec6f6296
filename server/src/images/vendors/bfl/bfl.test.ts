import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpstreamFailureError, type UpstreamFailure } from '../../../providers/provider-adapter.ts';
import { readErrorFixture, readJsonFixture } from '../../../providers/test-support/replay-fixture.ts';
import { parseBflPollAnswer, parseBflSubmitAnswer } from './parse-bfl-answers.ts';
import { parseBflError } from './parse-bfl-error.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const poll = (name: string) => parseBflPollAnswer(readJsonFixture(fixture(name)));

function pollFailure(name: string): UpstreamFailure {
  try {
    poll(name);
  } catch (error) {
    assert.ok(error instanceof UpstreamFailureError, String(error));
    return error.failure;
  }
  return assert.fail(`${name} should end the task`);
}

describe('Black Forest Labs: replayed answers', () => {
  it('reads the task id and the regional polling URL of a submit', () => {
    const task = parseBflSubmitAnswer(readJsonFixture(fixture('submit.json')));
    assert.equal(task.id, '9b3e5c1a-7f42-4d0e-9a61-2c8f0e4b7d15');
    assert.equal(task.polling_url, `https://api.us1.bfl.ai/v1/get_result?id=${task.id}`);
  });

  it('keeps polling a Pending task and takes the signed sample URL of a Ready one', () => {
    assert.deepEqual(poll('poll-pending.json'), { kind: 'pending' });
    const ready = poll('poll-ready.json');
    assert.equal(ready.kind, 'ready');
    assert.match(
      ready.kind === 'ready' ? ready.sampleUrl : '',
      /^https:\/\/delivery-us1\.bfl\.ai\/results\/.*sample\.jpeg\?/,
    );
  });

  it('turns a moderated prompt or picture into a content-policy refusal with BFL’s reasons', () => {
    const request = pollFailure('poll-request-moderated.json');
    assert.deepEqual([request.kind, request.vendorCode], ['request', 'content_policy_violation']);
    assert.match(request.message, /Request Moderated: Derivative Works Filter/);
    assert.match(pollFailure('poll-content-moderated.json').message, /Content Moderated: NSFW/);
  });

  it('treats a task that ended in Error as a route failure to fail over from', () => {
    const failure = pollFailure('poll-error.json');
    assert.deepEqual([failure.kind, failure.vendorCode], ['retryable', 'Error']);
  });
});

describe('Black Forest Labs: replayed errors', () => {
  it('maps a 422 on width to the client’s `size`', () => {
    const failure = parseBflError(readErrorFixture(fixture('validation-error.json')));
    assert.deepEqual([failure.kind, failure.param, failure.vendorCode], ['request', 'size', 'validation_error']);
    assert.match(failure.message, /multiple of 32/);
  });

  it('treats our credits running out as a route problem and the active-task limit as retryable', () => {
    assert.equal(parseBflError(readErrorFixture(fixture('out-of-credits-error.json'))).kind, 'credential');
    const busy = parseBflError(readErrorFixture(fixture('too-many-tasks-error.json')));
    assert.deepEqual([busy.kind, busy.retryAfterMs], ['retryable', 5000]);
  });
});
