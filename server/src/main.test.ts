import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasSemiSpaceCap } from './main.ts';

describe('hasSemiSpaceCap', () => {
  it('finds the cap on the command line or in NODE_OPTIONS, as npm start sets it', () => {
    assert.equal(hasSemiSpaceCap(['--max-semi-space-size=16'], ''), true);
    assert.equal(hasSemiSpaceCap([], '--max-semi-space-size=16'), true);
    assert.equal(
      hasSemiSpaceCap(['--disable-warning=ExperimentalWarning'], '--enable-source-maps  --max-semi-space-size=4'),
      true,
    );
  });

  it('says so when neither has it', () => {
    assert.equal(hasSemiSpaceCap(['--disable-warning=ExperimentalWarning'], ''), false);
    assert.equal(hasSemiSpaceCap([], '--max-old-space-size=512'), false);
  });
});
