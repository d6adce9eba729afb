// A profile's resume words: `{session}` stands for the id; an id is uuid-like or refused.
import {expect, it} from 'vitest';
import {SESSION_ID, withSession} from '../../../src/agents/resume.js';

it('puts the session id into the words, and takes only ids a shell reads as they are', () => {
  expect(withSession(['--resume', '{session}'], 'abc-1')).toEqual(['--resume', 'abc-1']);
  expect(withSession(['resume', 'x={session}'], 'a')).toEqual(['resume', 'x=a']);
  expect(SESSION_ID.test('01a21a4a-0513-7430-9cba-4037b666ee31')).toBe(true);
  for (const bad of ['', '-x', 'a b', 'a;rm', "a'b", '$(x)', 'a\nb'])
    expect(SESSION_ID.test(bad), bad).toBe(false);
});
